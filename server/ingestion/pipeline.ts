import { isManifestKey, snapshotBundleInput } from "../connectors/snapshot";
import { db } from "../db";
import { AppError, errorMessage } from "../errors";
import type { InternalMethod } from "../parsing/methods.schema";
import { partitionIsolatedInBatches } from "../parsing/isolated";
import { getSpeechModel } from "../providers/speech";
import { getVisionModel } from "../providers/vision";
import { yieldToEventLoop } from "../runtime/cpu-thread";
import { fileStore } from "../storage";
import { deleteElementsOfBuild } from "./bounded-deletes";
import { insertElements, toElementRow } from "./element-rows";
import { isSmallUpload, PARSE_LIMITS } from "./limits";
import { progressOf } from "./progress";

/**
 * The steps of a source build, each an idempotent function of the build id: a retried or resumed step first clears
 * what an earlier attempt of the same step wrote. The Inngest function (inngest/functions/process-source-build.ts)
 * only orders them; state lives in the database, so step results stay small.
 */

/** The build when it is still wanted; null when it (or its source) was deleted meanwhile. */
export const activeBuild = (buildId: string) =>
  db.build.findUnique({ where: { id: buildId }, include: { source: true } });

export type LoadedBuild = {
  buildId: string;
  projectId: string;
  sourceId: string;
  indexing: string;
  kind: string;
  /** A small upload: its build runs as one step (small-build.ts). */
  small?: boolean;
};

/** What a build's job needs of the build and its source (small-build.ts). */
export type BuildWithSource = {
  id: string;
  projectId: string;
  sourceId: string;
  method: string;
  enrichment: string;
  indexing: string;
  kind: string;
  source: { fileName: string; fileType: string; storageKey: string | null };
  /** A source's first build, never started before: neither it nor an older build wrote anything to clear. */
  fresh?: boolean;
};

type StartedRow = Omit<BuildWithSource, "source"> &
  BuildWithSource["source"] & { fileSize: number; fromOrigin: boolean; priorStatus: string };

/**
 * Marks the build and its source Processing and reads what the job needs, in one statement (it was six round trips:
 * two reads, BEGIN, two updates, COMMIT); null when the build (or its source) was deleted meanwhile.
 */
export const startBuild = async (buildId: string) => {
  const [row] = await db.$queryRaw<StartedRow[]>`
    WITH prior AS (SELECT status FROM builds WHERE id = ${buildId}::uuid),
    build AS (
      UPDATE builds SET status = 'Processing', step = 'load', progress = ${progressOf("load")}::int,
                        started_at = COALESCE(started_at, now()), updated_at = now()
       WHERE id = ${buildId}::uuid
      RETURNING id, project_id, source_id, method, enrichment, indexing, kind),
    source AS (
      UPDATE sources SET status = 'Processing', updated_at = now() FROM build WHERE sources.id = build.source_id
      RETURNING sources.id, file_name, file_type, storage_key, file_size, origin)
    SELECT build.id::text, build.project_id::text AS "projectId", build.source_id::text AS "sourceId", build.method,
           build.enrichment, build.indexing, build.kind, source.file_name AS "fileName",
           source.file_type AS "fileType", source.storage_key AS "storageKey", source.file_size::float8 AS "fileSize",
           (source.origin IS NOT NULL AND source.origin <> 'null'::jsonb) AS "fromOrigin",
           prior.status::text AS "priorStatus"
      FROM build JOIN source ON source.id = build.source_id, prior`;
  if (!row) return null;
  const { fileName, fileType, storageKey, fileSize, fromOrigin, priorStatus, ...rest } = row;
  const fresh = rest.kind === "ingest" && priorStatus === "Pending";
  const build: BuildWithSource = { ...rest, source: { fileName, fileType, storageKey }, fresh };
  const small =
    build.kind !== "index" &&
    !fromOrigin &&
    storageKey !== null &&
    !isManifestKey(storageKey) &&
    isSmallUpload(fileSize, fileType);
  const loaded: LoadedBuild = {
    buildId,
    projectId: build.projectId,
    sourceId: build.sourceId,
    indexing: build.indexing,
    kind: build.kind,
    small,
  };
  return { loaded, build };
};

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
  await db.build.update({ where: { id: buildId }, data: { step: "partition" } });
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
    { onRestart: clear, providers: { vision: getVisionModel(), speech: getSpeechModel() } },
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
      progress: progressOf("partition"),
    },
  });
  return { elements: result.elementCount, pages: result.totalPages, warnings: result.warnings.length };
};

/** Marks the build failed with a message a person can act on, and the source with it. */
export const failBuild = async (buildId: string, error: unknown) => {
  const message = errorMessage(error) || "Processing failed";
  const build = await db.build.findUnique({ where: { id: buildId }, select: { sourceId: true } });
  if (!build) return null;
  await db.$transaction([
    db.build.update({
      where: { id: buildId },
      data: { status: "ProcessingFailed", error: message, finishedAt: new Date() },
    }),
    db.source.update({ where: { id: build.sourceId }, data: { status: "Failed" } }),
    // Chunks the failed build wrote were never searchable; they go with their chunk set.
    db.chunkSet.deleteMany({ where: { buildId, status: "building" } }),
  ]);
  return { error: message };
};
