import { withModelUsage } from "../providers/usage";
import { db } from "../db";
import { resolveEmbedder } from "../model-providers/resolve";
import { errorMessage } from "../errors";
import { chunkSetsReembedRequested } from "../jobs/events";
import { sendJobEvent } from "../jobs/send";
import { logger } from "../logger";
import { ensureEmbeddingIndex } from "../retrieval/embedding-index";
import { embeddingInput } from "./service";
import { writeChunkVectors } from "./vectors";

/**
 * Re-embedding after a project's embedding model changed (its default model in the dashboard, or the EMBEDDING_*
 * settings read at start). Every ready chunk set of a
 * project whose vectors come from another model is embedded again with the current one, by the durable job
 * `reembed-chunk-sets` (one per project). Until a set is done, searches that reach it run by keyword only and say so;
 * vectors of two models are never compared.
 *
 * State lives in the database, not in the job: a chunk is done when its `embedding_index_id` is the new model's, a
 * set when none of its chunks is left (then its own `embedding_index_id` switches). So a step interrupted by a crash
 * resumes where the rows say, and a restart re-sends the same event (its id is the job's), which starts nothing twice.
 */

/** Chunks embedded per step of the job (each step commits every provider batch as it goes). */
const STEP_CHUNKS = 2000;
const EMBED_BATCH = 64;

/** Ready chunk sets (of one project, or all) whose vectors are not all of the given model. */
const staleSetsWhere = (indexId: string, projectId?: string) => ({
  ...(projectId ? { projectId } : {}),
  status: "ready" as const,
  chunkCount: { gt: 0 },
  OR: [{ embeddingIndexId: null }, { embeddingIndexId: { not: indexId } }],
});

/**
 * A re-embedding job for one project when it holds chunk sets of another model than its embedder's (the project's
 * default embedding model, else the environment's), and its event. A running job of an earlier model is superseded;
 * a running job for the current model is re-sent. Returns whether the project needed one.
 */
export const requestReembedding = async (projectId: string): Promise<boolean> => {
  const embedder = await resolveEmbedder(projectId);
  const index = await ensureEmbeddingIndex(embedder);
  await db.reembeddingJob.updateMany({
    where: { projectId, status: "running", embeddingIndexId: { not: index.id } },
    data: { status: "failed", error: "Superseded by another embedding model", finishedAt: new Date() },
  });
  const stale = await db.chunkSet.aggregate({ where: staleSetsWhere(index.id, projectId), _sum: { chunkCount: true } });
  const total = stale._sum.chunkCount ?? 0;
  if (!total) return false;
  const job =
    (await db.reembeddingJob.findFirst({ where: { projectId, embeddingIndexId: index.id, status: "running" } })) ??
    (await db.reembeddingJob.create({ data: { projectId, embeddingIndexId: index.id, totalChunks: total } }));
  await sendJobEvent(chunkSetsReembedRequested, { jobId: job.id, projectId }, { id: `reembed-${job.id}` }).catch(
    (err: unknown) => logger.error({ err, jobId: job.id }, "could not start re-embedding"),
  );
  logger.info({ projectId, model: embedder.model }, "re-embedding chunk sets");
  return true;
};

/** At start: a job for every project holding ready chunk sets whose vectors are not its embedder's. */
export const startReembedding = async (): Promise<number> => {
  const projects = await db.chunkSet.groupBy({ by: ["projectId"], where: { status: "ready", chunkCount: { gt: 0 } } });
  let started = 0;
  for (const { projectId } of projects) if (await requestReembedding(projectId)) started += 1;
  return started;
};

/**
 * One step of the job: up to STEP_CHUNKS chunks of the project's stale sets embedded with the current model.
 * Returns whether the job is done (no stale set left). Fails when the job's model is no longer the project's.
 */
export const reembedStep = async (jobId: string): Promise<{ done: boolean; embedded: number }> => {
  const job = await db.reembeddingJob.findUnique({ where: { id: jobId } });
  if (!job || job.status !== "running") return { done: true, embedded: 0 };
  const embedder = await resolveEmbedder(job.projectId);
  const index = await ensureEmbeddingIndex(embedder);
  if (index.id !== job.embeddingIndexId) throw new Error("The embedding model changed again; a new job takes over");
  let embedded = 0;
  while (embedded < STEP_CHUNKS) {
    const set = await db.chunkSet.findFirst({
      where: staleSetsWhere(index.id, job.projectId),
      orderBy: { createdAt: "asc" },
    });
    if (!set) return { done: true, embedded };
    const limit = STEP_CHUNKS - embedded;
    const pending = await db.$queryRaw<{ id: string; text: string; title: string; heading: string }[]>`
      SELECT id::text, text, title, heading FROM chunks
      WHERE chunk_set_id = ${set.id}::uuid AND node_index_id IS NULL
        AND embedding_index_id IS DISTINCT FROM ${index.id}::uuid
      ORDER BY position LIMIT ${limit}`;
    for (let i = 0; i < pending.length; i += EMBED_BATCH) {
      const batch = pending.slice(i, i + EMBED_BATCH);
      const vectors = await withModelUsage({ projectId: job.projectId, cause: "reembedding" }, () =>
        embedder.embed(batch.map(embeddingInput)),
      );
      await writeChunkVectors({ indexId: index.id, ids: batch.map((c) => c.id), vectors });
      await db.reembeddingJob.update({ where: { id: jobId }, data: { doneChunks: { increment: batch.length } } });
      embedded += batch.length;
    }
    // Fewer than asked for: every chunk of the set has the new model's vector now.
    if (pending.length < limit) {
      await db.chunkSet.update({ where: { id: set.id }, data: { embeddingIndexId: index.id } });
    }
  }
  return { done: false, embedded };
};

export const finishReembedding = async (jobId: string, error?: unknown) => {
  await db.reembeddingJob.updateMany({
    where: { id: jobId, status: "running" },
    data: error
      ? { status: "failed", error: errorMessage(error), finishedAt: new Date() }
      : { status: "completed", finishedAt: new Date() },
  });
  return { status: error ? "failed" : "completed" };
};
