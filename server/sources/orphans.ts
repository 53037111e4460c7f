import { db } from "../db";
import { env } from "../env";
import { logger } from "../logger";
import { fileStore, sourceFolder, type FileStore } from "../storage";

/**
 * Originals whose source row never came. An upload is streamed into the file store before its source row exists (the
 * request's other fields may arrive after the file), so a process killed in between would leave the bytes with no
 * row pointing at them. A pending record is written before the first byte and removed in the statement that creates
 * the source (service.ts); the sweep deletes the files of records older than the bound, which must be longer than any
 * upload can take. It is system maintenance, across projects: a record names its project, and no request reaches it.
 */

/** Records handled per round; a round deletes every record it read, so the sweep always ends. */
const SWEEP_BATCH = 200;

export const recordPendingUpload = (ids: { projectId: string; sourceId: string }) =>
  db.pendingUpload.create({ data: ids });

export const forgetPendingUpload = (sourceId: string) => db.pendingUpload.deleteMany({ where: { sourceId } });

export const orphanBoundMs = () => env.QUARRY_ORPHAN_UPLOAD_MINUTES * 60_000;

/**
 * Deletes the stored files of uploads pending for longer than `olderThanMs` with no source row, and their records.
 * Ages are read on the database's clock (the one that wrote them), so replicas' clocks do not matter; replicas that
 * sweep at once delete the same keys twice, which is harmless. Returns how many uploads' files were deleted.
 */
export const sweepOrphanUploads = async ({
  olderThanMs = orphanBoundMs(),
  store = fileStore(),
}: { olderThanMs?: number; store?: FileStore } = {}) => {
  let deleted = 0;
  for (;;) {
    const stale = await db.$queryRaw<{ sourceId: string; projectId: string; live: boolean }[]>`
      SELECT p.source_id AS "sourceId", p.project_id AS "projectId", s.id IS NOT NULL AS live
      FROM pending_uploads p LEFT JOIN sources s ON s.id = p.source_id
      WHERE p.created_at < now() - make_interval(secs => ${olderThanMs / 1000}::float8)
      ORDER BY p.created_at
      LIMIT ${SWEEP_BATCH}`;
    for (const upload of stale) {
      // A source row owns its files (deleteSource removes them); only the record is stale then.
      if (!upload.live) await store.deletePrefix(sourceFolder(upload));
      await forgetPendingUpload(upload.sourceId);
      if (!upload.live) deleted += 1;
    }
    if (stale.length < SWEEP_BATCH) return deleted;
  }
};

let sweeping = false;

/** One sweep, never two at once in this process; a failure is logged and the next sweep tries again. */
const sweepOnce = async () => {
  if (sweeping) return;
  sweeping = true;
  try {
    const deleted = await sweepOrphanUploads();
    if (deleted) logger.warn({ deleted }, "deleted the stored files of uploads that never became a source");
  } catch (err) {
    logger.error({ err }, "the orphaned upload sweep failed");
  } finally {
    sweeping = false;
  }
};

/** Sweeps now and every quarter of the bound, for the life of the app's services; returns the stop. */
export const startOrphanSweep = () => {
  void sweepOnce();
  const timer = setInterval(() => void sweepOnce(), orphanBoundMs() / 4);
  timer.unref();
  return () => clearInterval(timer);
};
