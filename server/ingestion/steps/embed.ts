import { embeddingInput } from "../../chunk-sets/service";
import { withModelUsage } from "../../providers/usage";
import { VECTOR_SLICE, writeChunkVectors } from "../../chunk-sets/vectors";
import { draftIdsOfBuild, draftTexts, moveDrafts } from "../../chunk-sets/drafts";
import { db } from "../../db";
import { errorMessage } from "../../errors";
import { logger } from "../../logger";
import { resolveEmbedder } from "../../model-providers/resolve";
import type { Embedder } from "../../providers/embedding";
import { embedTexts } from "../../providers/embedding/embed-texts";
import { ensureEmbeddingIndex } from "../../retrieval/embedding-index";
import { yieldToEventLoop } from "../../concurrency/cpu-thread";
import { enterStep, stepDone } from "../step-progress";

export const EMBED_BATCH = 64;

type ChunkToEmbed = { id: string; text: string; title: string; heading: string };

/** The texts of chunks to embed, by id, in the order given. */
const chunkTexts = async (ids: string[]) => {
  const rows = await db.$queryRaw<ChunkToEmbed[]>`
    SELECT id::text, text, title, heading FROM chunks WHERE id = ANY(${ids}::uuid[])`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((c): c is ChunkToEmbed => c !== undefined);
};

/** The project's embedder (its default model, else the environment's) and its embedding index (made on first use). */
export const embeddingTarget = async (projectId: string) => {
  const embedder = await resolveEmbedder(projectId);
  return { embedder, index: await ensureEmbeddingIndex(embedder) };
};

type EmbedBatches = {
  buildId: string;
  embedder: Embedder;
  /** How many chunks there are. */
  count: number;
  /** The chunks from `from` up to `to` (exclusive), in order. */
  batch: (from: number, to: number) => ChunkToEmbed[] | Promise<ChunkToEmbed[]>;
  /** Keeps a batch's vectors. */
  store: (chunks: ChunkToEmbed[], vectors: number[][]) => Promise<void>;
};

/**
 * The embed step's work: chunks embedded EMBED_BATCH at a time, each batch's vectors handed to `store` (the durable
 * step writes them, a small build keeps them for its one INSERT); returns how many batches failed. A batch the
 * provider keeps refusing is counted, not fatal, unless every batch fails.
 */
export const embedInBatches = async ({ buildId, embedder, count, batch, store }: EmbedBatches) => {
  let failedBatches = 0;
  let lastError: string | null = null;
  for (let i = 0; i < count; i += EMBED_BATCH) {
    try {
      const chunks = await batch(i, i + EMBED_BATCH);
      await store(chunks, await embedTexts(embedder, chunks.map(embeddingInput)));
    } catch (error) {
      failedBatches += 1;
      lastError = errorMessage(error);
      logger.warn({ buildId, batch: i / EMBED_BATCH, err: error }, "embedding batch failed");
    }
  }
  const batches = Math.ceil(count / EMBED_BATCH);
  if (batches > 0 && failedBatches === batches) {
    throw new Error(`Embedding failed for every batch: ${lastError}`);
  }
  return failedBatches;
};

/**
 * Embeds chunks batch by batch and writes their vectors; returns how many batches failed. Each batch's texts are read
 * when it is embedded: a 100 MB document's chunk texts are never all in memory, nor in one answer of the database.
 */
export const embedChunks = ({
  buildId,
  embedder,
  indexId,
  ids,
}: {
  buildId: string;
  embedder: Embedder;
  indexId: string;
  ids: string[];
}) =>
  embedInBatches({
    buildId,
    embedder,
    count: ids.length,
    batch: (from, to) => chunkTexts(ids.slice(from, to)),
    store: async (chunks, vectors) => {
      await writeChunkVectors({ indexId, ids: chunks.map((c) => c.id), vectors });
      await yieldToEventLoop();
    },
  });

/** Moves drafts into `chunks` VECTOR_SLICE at a time, with their vectors when given. */
const moveInSlices = async (indexId: string, ids: string[], vectors?: number[][]) => {
  for (let i = 0; i < ids.length; i += VECTOR_SLICE) {
    await moveDrafts({ indexId, ids: ids.slice(i, i + VECTOR_SLICE), vectors: vectors?.slice(i, i + VECTOR_SLICE) });
    await yieldToEventLoop();
  }
};

/**
 * Embeds the build's chunk drafts batch by batch, each batch moved into `chunks` with its vectors; says how many and
 * how many batches failed. The drafts of a batch the provider refused are moved without vectors (found by keyword
 * only): every chunk of the build is in `chunks` when the step ends.
 */
const embedDrafts = async ({ buildId, embedder, indexId }: Omit<Parameters<typeof embedChunks>[0], "ids">) => {
  const ids = await draftIdsOfBuild(buildId);
  const failedBatches = await embedInBatches({
    buildId,
    embedder,
    count: ids.length,
    batch: (from, to) => draftTexts(ids.slice(from, to)),
    store: (drafts, vectors) =>
      moveInSlices(
        indexId,
        drafts.map(({ id }) => id),
        vectors,
      ),
  });
  if (failedBatches > 0) await moveInSlices(indexId, await draftIdsOfBuild(buildId));
  return { embedded: ids.length, failedBatches };
};

/**
 * Embeds the build's chunks: its drafts (the chunk step's output), and any chunk already in `chunks` without a vector
 * of this model (a batch an earlier attempt could not embed, or a build resumed after the model changed). A batch the
 * provider keeps refusing is counted, not fatal: the build ends "Completed with errors". A retried step resumes where
 * it stopped: a batch is moved with its vectors in one statement.
 */
export const embedBuild = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  await enterStep(buildId, "embed");
  const { embedder, index } = await embeddingTarget(build.projectId);
  // Ids only (a few MB for a 100 MB document); the texts are read batch by batch.
  const pending = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id::text FROM chunks c JOIN chunk_sets cs ON cs.id = c.chunk_set_id
    WHERE cs.build_id = ${buildId}::uuid AND c.node_index_id IS NULL AND (c.embedding IS NULL OR c.embedding_index_id IS DISTINCT FROM ${index.id}::uuid)
    ORDER BY c.position`;
  const ids = pending.map((r) => r.id);
  const { embedded, failedBatches } = await withModelUsage(
    { projectId: build.projectId, cause: "ingestion" },
    async () => {
      const failedBefore = await embedChunks({ buildId, embedder, indexId: index.id, ids });
      const drafts = await embedDrafts({ buildId, embedder, indexId: index.id });
      return { embedded: ids.length + drafts.embedded, failedBatches: failedBefore + drafts.failedBatches };
    },
  );
  await db.$transaction([
    db.chunkSet.updateMany({ where: { buildId }, data: { embeddingIndexId: index.id } }),
    db.build.update({
      where: { id: buildId },
      data: { failedBatchesCount: failedBatches, embeddingIndexId: index.id, ...stepDone("embed") },
    }),
  ]);
  return { embedded, failedBatches };
};
