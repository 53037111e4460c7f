import { db } from "../db";
import { toVectorLiteral } from "../retrieval/embedding-index";

type ChunkVectors = { indexId: string; ids: string[]; vectors: number[][] };

/** The statement (for a transaction, or awaited) that writes one batch of chunk vectors and their embedding index. */
export const chunkVectorsUpdate = ({ indexId, ids, vectors }: ChunkVectors) =>
  db.$executeRaw`
    UPDATE chunks AS c SET embedding = v.vec::vector, embedding_index_id = ${indexId}::uuid
    FROM (SELECT unnest(${ids}::uuid[]) AS id, unnest(${vectors.map(toVectorLiteral)}::text[]) AS vec) AS v
    WHERE c.id = v.id`;

/**
 * Rows per statement (and per move of chunk drafts, drafts.ts): each vector goes into the HNSW index as it is written, and 64 of them held the embedded
 * database 300-400 ms a statement, back to back through a large build's embed step, while list and search calls
 * waited (BENCH_ONLY=busy, QUARRY_DB_SLOW_MS=300).
 */
export const VECTOR_SLICE = 16;

/** Writes one batch of chunk vectors and the embedding index they belong to, VECTOR_SLICE rows per statement. */
export const writeChunkVectors = async ({ indexId, ids, vectors }: ChunkVectors) => {
  for (let i = 0; i < ids.length; i += VECTOR_SLICE) {
    await chunkVectorsUpdate({
      indexId,
      ids: ids.slice(i, i + VECTOR_SLICE),
      vectors: vectors.slice(i, i + VECTOR_SLICE),
    });
  }
};
