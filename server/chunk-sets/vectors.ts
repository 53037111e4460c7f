import { db } from "../db";
import { toVectorLiteral } from "../retrieval/embedding-index";

/** Writes one batch of chunk vectors and the embedding index they belong to, in one statement. */
export const writeChunkVectors = async ({
  indexId,
  ids,
  vectors,
}: {
  indexId: string;
  ids: string[];
  vectors: number[][];
}) => {
  await db.$executeRaw`
    UPDATE chunks AS c SET embedding = v.vec::vector, embedding_index_id = ${indexId}::uuid
    FROM (SELECT unnest(${ids}::uuid[]) AS id, unnest(${vectors.map(toVectorLiteral)}::text[]) AS vec) AS v
    WHERE c.id = v.id`;
};
