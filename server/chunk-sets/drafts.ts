import { db } from "../db";
import { toVectorLiteral } from "../retrieval/embedding-index";
import type { ChunkInsert } from "./insert";

/**
 * Chunk drafts (the `chunk_drafts` table): a large build's chunks between its chunk step and its embed step. The
 * embed step moves each batch into `chunks` with its vectors, so a chunk is written into `chunks` and its indexes
 * (full text, BM25, HNSW) once, where an INSERT then an UPDATE of the vector indexed every chunk twice.
 */

/** Writes drafts (the chunk step; CHUNK_INSERT_BATCH of them at a time). */
export const insertChunkDrafts = (rows: (ChunkInsert & { buildId: string })[]) =>
  db.chunkDraft.createMany({ data: rows });

/** The ids of a build's drafts not moved yet, in document order (a few MB for a 100 MiB text: ids only). */
export const draftIdsOfBuild = async (buildId: string) => {
  const rows = await db.chunkDraft.findMany({ where: { buildId }, select: { id: true }, orderBy: { position: "asc" } });
  return rows.map((r) => r.id);
};

type DraftToEmbed = { id: string; text: string; title: string; heading: string };

/** The texts of drafts to embed, in the order of `ids` (one missing from the table is left out). */
export const draftTexts = async (ids: string[]): Promise<DraftToEmbed[]> => {
  const rows = await db.chunkDraft.findMany({
    where: { id: { in: ids } },
    select: { id: true, text: true, title: true, heading: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((d): d is DraftToEmbed => d !== undefined);
};

/**
 * Moves drafts into `chunks`, with their vectors of the embedding index `indexId` (`vectors[i]` for `ids[i]`; none
 * for a batch the embedder refused: such a chunk is found by keyword only, and a retried embed step embeds it). One
 * statement, so atomic without a transaction: a draft is deleted and inserted together, and a retried move finds
 * nothing left to move.
 */
export const moveDrafts = ({ indexId, ids, vectors }: { indexId: string; ids: string[]; vectors?: number[][] }) => {
  const literals = ids.map((_, i) => (vectors?.[i] ? toVectorLiteral(vectors[i]) : null));
  return db.$executeRaw`
    WITH moved AS (DELETE FROM chunk_drafts WHERE id = ANY(${ids}::uuid[]) RETURNING *)
    INSERT INTO chunks (id, project_id, source_id, chunk_set_id, build_id, position, text, title, heading,
      page_number, element_ids, metadata, embedding_index_id, embedding)
    SELECT d.id, d.project_id, d.source_id, d.chunk_set_id, d.build_id, d.position, d.text, d.title, d.heading,
      d.page_number, d.element_ids, d.metadata, CASE WHEN v.vec IS NULL THEN NULL ELSE ${indexId}::uuid END,
      v.vec::vector
    FROM moved d JOIN (SELECT unnest(${ids}::uuid[]) AS id, unnest(${literals}::text[]) AS vec) v ON v.id = d.id`;
};
