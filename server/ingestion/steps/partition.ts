import { isManifestKey, snapshotBundleInput } from "../../connectors/snapshot";
import { modelCallRecorder } from "../../providers/usage";
import { db } from "../../db";
import { AppError, printable } from "../../errors";
import type { InternalMethod } from "../../parsing/methods.schema";
import type { ParsedElement } from "../../parsing/types";
import { partitionIsolatedInBatches } from "../../parsing/isolated";
import { resolveSpeechModel, resolveVisionModel } from "../../model-providers/resolve";
import { yieldToEventLoop } from "../../concurrency/cpu-thread";
import { fileStore } from "../../storage";
import { activeBuild } from "../build-context";
import { deleteElementsOfBuild } from "../bounded-deletes";
import { insertElements, toElementRow } from "../element-rows";
import { PARSE_LIMITS } from "../limits";
import { enterStep, stepDone } from "../step-progress";

/** What the parse worker reads for an uploaded file. */
export const uploadParseInput = (
  source: { storageKey: string | null; fileName: string; fileType: string },
  method: InternalMethod,
) => ({
  // Copied into the parse job's folder: a 100 MB upload is never read into this process.
  copyTo: (file: string) => fileStore().copyToFile(source.storageKey!, file),
  fileName: source.fileName,
  fileType: source.fileType,
  method,
});

type ParsedSource = { storageKey: string | null; fileName: string; fileType: string };
type ParseSink = {
  /** Keeps a batch of elements (the first at position `first`) as the worker sends it. */
  store: (elements: ParsedElement[], first: number) => Promise<void>;
  /** Drops what `store` kept: the parse starts again (a page over its budget). */
  clear: () => Promise<void>;
};

/**
 * The partition step's work: the stored file (or a connector's snapshot) parsed in a parse worker, its elements handed
 * to `sink` batch by batch. The durable step stores them in the database, a small build keeps them in memory.
 */
export const parseDocument = async (
  source: ParsedSource,
  method: InternalMethod,
  sink: ParseSink,
  projectId: string,
) => {
  if (!source.storageKey) throw new AppError("UNPROCESSABLE", "The source has no stored file to parse");
  // A connector's snapshot (pages of a crawl, files of a repository, captions) parses as one bundle.
  const input = isManifestKey(source.storageKey)
    ? await snapshotBundleInput({ manifestKey: source.storageKey, method })
    : uploadParseInput(source, method);
  // Parsing reads no settings: the project's models (its defaults, else the deployment's) are handed to it here.
  const providers = { vision: await resolveVisionModel(projectId), speech: await resolveSpeechModel(projectId) };
  return partitionIsolatedInBatches(input, PARSE_LIMITS, sink.store, {
    onRestart: sink.clear,
    providers,
    // The worker's vision and speech calls are recorded as this project's ingestion usage.
    onModelCall: modelCallRecorder({ projectId, cause: "ingestion" }),
  });
};

type PartitionMeta = Awaited<ReturnType<typeof partitionIsolatedInBatches>>;

/** What partitioning writes on the build. */
export const partitionedBuild = (meta: PartitionMeta) => ({
  totalPartitions: meta.elementCount,
  totalPages: meta.totalPages,
  warnings: meta.warnings.map(printable),
  pageMethods: meta.pageMethods ?? undefined,
});

/** Parses the original file into elements of this build. */
export const partitionBuild = async (buildId: string) => {
  const build = await activeBuild(buildId);
  if (!build) return null;
  await enterStep(buildId, "partition");
  const toRow = toElementRow(buildId);
  const scope = { projectId: build.projectId, sourceId: build.sourceId, buildId };
  const clear = async () => {
    await deleteElementsOfBuild(buildId);
  };
  await clear();
  // Stored batch by batch as the worker sends them; the event loop serves requests between batches. A parse that
  // fails, or starts again (a page over its budget), leaves no half result behind.
  const store = async (elements: ParsedElement[], first: number) => {
    await insertElements(
      scope,
      elements.map((el, j) => toRow(el, first + j)),
    );
    await yieldToEventLoop();
  };
  const result = await parseDocument(
    build.source,
    build.method as InternalMethod,
    { store, clear },
    build.projectId,
  ).catch(async (error: unknown) => {
    await clear();
    throw error;
  });
  await db.build.update({ where: { id: buildId }, data: { ...partitionedBuild(result), ...stepDone("partition") } });
  return { elements: result.elementCount, pages: result.totalPages, warnings: result.warnings.length };
};
