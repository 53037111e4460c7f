import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { ACTIVE_BUILD_STATUSES } from "../ingestion/builds";
import { db } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { requestBuild } from "../ingestion/schedule";
import { isSmallUpload } from "../ingestion/limits";
import { logger } from "../logger";
import { fileStore, originalFileKey, sourceFolder } from "../storage";
import { assertMethodAvailable, type BuildOptions } from "../ingestion/build-options";
import { extensionOf, isAllowedExtension } from "./sources.schema";
import { forgetSourceInFlows } from "../flows/datasets";
import { emitSourceDeleted } from "../webhooks/events";
import { forgetPendingUpload, recordPendingUpload } from "./orphans";

export const listSources = ({ projectId, fileIds }: { projectId: string; fileIds?: string[] }) =>
  db.source.findMany({
    where: { projectId, ...(fileIds ? { id: { in: fileIds.filter(isUuid) } } : {}) },
    orderBy: { createdAt: "asc" },
  });

export const findSource = async ({ projectId, fileId }: { projectId: string; fileId: string }) =>
  isUuid(fileId) ? db.source.findFirst({ where: { id: fileId, projectId } }) : null;

/**
 * Why each Failed source failed: its last build's error, by source id. Source records carry it as `error` (a field
 * clients may ignore), so the legacy calls, which answer with a record and no build id, say more than "Source
 * processing failed".
 */
export const failureReasons = async (
  projectId: string,
  sources: { status: string; lastBuildId: string | null }[],
): Promise<Map<string, string>> => {
  const buildIds = sources.flatMap((s) => (s.status === "Failed" && s.lastBuildId ? [s.lastBuildId] : []));
  if (!buildIds.length) return new Map();
  const builds = await db.build.findMany({
    where: { projectId, id: { in: buildIds } },
    select: { sourceId: true, error: true },
  });
  return new Map(builds.flatMap((b) => (b.error ? [[b.sourceId, b.error] as const] : [])));
};

export const sourceExists = async (sourceId: string) => (await db.source.count({ where: { id: sourceId } })) > 0;

/**
 * Resolves the deprecated name-based lookup. Names are not unique (duplicates are allowed), so an ambiguous name
 * is refused rather than guessed.
 */
export const findSourceByName = async ({ projectId, fileName }: { projectId: string; fileName: string }) => {
  const matches = await db.source.findMany({ where: { projectId, fileName }, take: 2 });
  if (matches.length > 1) throw new AppError("BAD_REQUEST", `Multiple sources named '${fileName}'; use file_id`);
  return matches[0] ?? null;
};

/** Refuses names the pipeline cannot take, before any byte is stored. */
export const checkUploadFileName = (fileName: string) => {
  const ext = extensionOf(fileName);
  if (!fileName || !ext) throw new AppError("BAD_REQUEST", "File must have a filename with an extension");
  if (!isAllowedExtension(ext)) throw new AppError("BAD_REQUEST", `Unsupported file type: .${ext}`);
};

/**
 * Streams an upload into the file store under a fresh source id; the caller creates the source afterwards. The
 * pending record written first lets the orphan sweep (orphans.ts) delete the file if the process dies before then.
 */
export const storeUpload = async ({
  projectId,
  fileName,
  stream,
  maxBytes,
}: {
  projectId: string;
  fileName: string;
  stream: Readable;
  maxBytes: number;
}) => {
  const sourceId = randomUUID();
  const fileType = extensionOf(fileName);
  const storageKey = originalFileKey({ projectId, sourceId }, fileType);
  await recordPendingUpload({ projectId, sourceId });
  const { size } = await fileStore()
    .put(storageKey, stream, { maxBytes })
    .catch(async (error: unknown) => {
      await forgetPendingUpload(sourceId); // a failed put leaves nothing behind
      throw error;
    });
  return { sourceId, fileName, fileType, storageKey, size };
};

export type StoredUpload = Awaited<ReturnType<typeof storeUpload>>;

export const discardUpload = async (upload: StoredUpload) => {
  await fileStore().delete(upload.storageKey);
  await forgetPendingUpload(upload.sourceId);
};

/**
 * Creates the source (status New) and its first build (Pending) in one statement, then schedules the build. Raw SQL:
 * Prisma's nested create took five round trips (BEGIN, two inserts, a read back, COMMIT), a fifth of an upload of
 * a small document. The other columns take their defaults. The same statement removes the upload's pending record:
 * from then on the source row owns the file.
 */
export const createSourceFromUpload = async ({
  projectId,
  upload,
  options,
}: {
  projectId: string;
  upload: StoredUpload;
  options: BuildOptions;
}) => {
  await assertMethodAvailable(projectId, options.method);
  const buildId = randomUUID();
  await db.$executeRaw`
    WITH source AS (
      INSERT INTO sources (id, project_id, file_name, file_type, file_size, file_source, storage_key, method,
                           last_build_id, updated_at)
      VALUES (${upload.sourceId}::uuid, ${projectId}::uuid, ${upload.fileName}, ${upload.fileType}, ${upload.size},
              'local file', ${upload.storageKey}, ${options.method}, ${buildId}::uuid, now())
      RETURNING id),
    pending AS (DELETE FROM pending_uploads WHERE source_id = ${upload.sourceId}::uuid)
    INSERT INTO builds (id, project_id, source_id, method, enrichment, indexing, kind, updated_at)
    SELECT ${buildId}::uuid, ${projectId}::uuid, id, ${options.method}, ${options.enrichment}, ${options.indexing},
           'ingest', now()
    FROM source`;
  await requestBuild({
    buildId,
    projectId,
    sourceId: upload.sourceId,
    small: isSmallUpload(upload.size, upload.fileType),
  });
  return { buildId };
};

/**
 * A new build of an existing source (same file_id). One build per source at a time. A URL, GitHub or YouTube
 * source re-parses its stored snapshot; with `refresh` it is fetched again first.
 */
export const reprocessSource = async ({
  projectId,
  fileId,
  options,
  refresh = false,
}: {
  projectId: string;
  fileId: string;
  options: BuildOptions;
  refresh?: boolean;
}) => {
  const source = await findSource({ projectId, fileId });
  if (!source) throw new AppError("NOT_FOUND", "Source node not found");
  await assertMethodAvailable(projectId, options.method);
  if (refresh && !source.origin) {
    throw new AppError("BAD_REQUEST", "Only url, github and youtube sources can be fetched again (refresh)");
  }
  const buildId = randomUUID();
  // The row lock on the source serialises concurrent reprocess calls, so at most one of them sees no active build.
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM sources WHERE id = ${source.id}::uuid AND project_id = ${projectId}::uuid FOR UPDATE`;
    const active = await tx.build.count({
      where: { projectId, sourceId: source.id, status: { in: ACTIVE_BUILD_STATUSES } },
    });
    if (active > 0) throw new AppError("CONFLICT", "A build is already running for this source");
    await tx.build.create({
      data: { id: buildId, projectId, sourceId: source.id, kind: refresh ? "refresh" : "reprocess", ...options },
    });
    await tx.source.update({
      where: { id: source.id },
      data: { lastBuildId: buildId, method: options.method, status: "Processing" },
    });
  });
  await requestBuild({ buildId, projectId, sourceId: source.id });
  return { buildId };
};

/**
 * Deletes a source for good: rows (builds, elements, chunks with their embeddings) go in one transaction through
 * the foreign keys' cascades; the stored files follow once that committed.
 */
export const deleteSource = async ({ projectId, fileId }: { projectId: string; fileId: string }) => {
  const source = await findSource({ projectId, fileId });
  if (!source) throw new AppError("NOT_FOUND", "Source not found");
  await db.source.delete({ where: { id: source.id } });
  await forgetSourceInFlows(projectId, source.id);
  await emitSourceDeleted(source);
  await fileStore()
    .deletePrefix(sourceFolder({ projectId, sourceId: source.id }))
    .catch((err: unknown) => logger.warn({ err, sourceId: source.id }, "source files could not be removed"));
  return source;
};
