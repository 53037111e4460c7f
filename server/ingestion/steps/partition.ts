import { isManifestKey, snapshotBundleInput } from "../../connectors/snapshot";
import { modelCallRecorder } from "../../providers/usage";
import { db } from "../../db";
import { AppError } from "../../errors";
import type { InternalMethod } from "../../parsing/methods.schema";
import { partitionIsolatedInBatches } from "../../parsing/isolated";
import { getSpeechModel } from "../../providers/speech";
import { getVisionModel } from "../../providers/vision";
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

/** Parses the original file into elements of this build. */
export const partitionBuild = async (buildId: string) => {
  const build = await activeBuild(buildId);
  if (!build) return null;
  const { source } = build;
  await enterStep(buildId, "partition");
  if (!source.storageKey) throw new AppError("UNPROCESSABLE", "The source has no stored file to parse");
  const method = build.method as InternalMethod;
  // A connector's snapshot (pages of a crawl, files of a repository, captions) parses as one bundle.
  const input = isManifestKey(source.storageKey)
    ? await snapshotBundleInput({ manifestKey: source.storageKey, method })
    : uploadParseInput(source, method);
  const toRow = toElementRow(buildId);
  const scope = { projectId: build.projectId, sourceId: build.sourceId, buildId };
  const clear = async () => {
    await deleteElementsOfBuild(buildId);
  };
  await clear();
  // Stored batch by batch as the worker sends them; the event loop serves requests between batches. A parse that
  // fails, or starts again (a page over its budget), leaves no half result behind.
  const result = await partitionIsolatedInBatches(
    input,
    PARSE_LIMITS,
    async (elements, first) => {
      await insertElements(
        scope,
        elements.map((el, j) => toRow(el, first + j)),
      );
      await yieldToEventLoop();
    },
    // Parsing reads no settings: the models this deployment configures are handed to it here.
    {
      onRestart: clear,
      providers: { vision: getVisionModel(), speech: getSpeechModel() },
      onModelCall: modelCallRecorder({ projectId: build.projectId, cause: "ingestion" }),
    },
  ).catch(async (error: unknown) => {
    await clear();
    throw error;
  });
  await db.build.update({
    where: { id: buildId },
    data: {
      totalPartitions: result.elementCount,
      totalPages: result.totalPages,
      warnings: result.warnings,
      pageMethods: result.pageMethods ?? undefined,
      ...stepDone("partition"),
    },
  });
  return { elements: result.elementCount, pages: result.totalPages, warnings: result.warnings.length };
};
