import { db } from "../db";
import { toVectorLiteral } from "../retrieval/embedding-index";

type ChunkVectors = { indexId: string; ids: string[]; vectors: number[][] };

/** The statement (for a transaction, or awaited) that writes one batch of chunk vectors and their embedding index. */
export const chunkVectorsUpdate = ({ indexId, ids, vectors }: ChunkVectors) =>
  db.$executeRaw`
    UPDATE chunks AS c SET embedding = v.vec::vector, embedding_index_id = ${indexId}::uuid
    FROM (SELECT unnest(${ids}::uuid[]) AS id, unnest(${vectors.map(toVectorLiteral)}::text[]) AS vec) AS v
    WHERE c.id = v.id`;

/** Writes one batch of chunk vectors and the embedding index they belong to, in one statement. */
export const writeChunkVectors = async (batch: ChunkVectors) => {
  await chunkVectorsUpdate(batch);
};
