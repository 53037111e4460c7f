import { db } from "../db";
import { toVectorLiteral } from "../retrieval/embedding-index";

/** Chunks per INSERT statement: a statement holds the embedded database for everyone while it runs. */
export const CHUNK_INSERT_BATCH = 200;

/** A chunk as a chunk set stores it; the vector when it is known at insert time. */
export type ChunkInsert = {
  id: string;
  projectId: string;
  sourceId: string;
  chunkSetId: string;
  buildId: string | null;
  position: number;
  text: string;
  title: string;
  heading: string;
  pageNumber: number | null;
  elementIds: string[];
  metadata: object;
};

/**
 * One INSERT of chunks through `unnest` (for a transaction, or awaited), with their vectors when given (`vectors`
 * by chunk id, all of one embedding index): a chunk written with its vector is written once, where an INSERT then
 * an UPDATE writes every row and every index entry (full text, BM25, vector) twice. Element ids travel as JSON,
 * as `unnest` would flatten arrays of arrays.
 */
export const insertChunks = (
  rows: readonly ChunkInsert[],
  vectors?: { indexId: string; byId: ReadonlyMap<string, number[]> },
) => db.$executeRaw`
  INSERT INTO chunks (id, project_id, source_id, chunk_set_id, build_id, position, text, title, heading, page_number,
    element_ids, metadata, embedding_index_id, embedding)
  SELECT v.id, v.project_id, v.source_id, v.chunk_set_id, v.build_id, v.position, v.text, v.title, v.heading,
    v.page_number, ARRAY(SELECT jsonb_array_elements_text(v.element_ids::jsonb)), v.metadata::jsonb,
    CASE WHEN v.embedding IS NULL THEN NULL ELSE ${vectors?.indexId ?? null}::uuid END, v.embedding::vector
  FROM unnest(
    ${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.projectId)}::uuid[], ${rows.map((r) => r.sourceId)}::uuid[],
    ${rows.map((r) => r.chunkSetId)}::uuid[], ${rows.map((r) => r.buildId)}::uuid[], ${rows.map((r) => r.position)}::int[],
    ${rows.map((r) => r.text)}::text[], ${rows.map((r) => r.title)}::text[], ${rows.map((r) => r.heading)}::text[],
    ${rows.map((r) => r.pageNumber)}::int[], ${rows.map((r) => JSON.stringify(r.elementIds))}::text[],
    ${rows.map((r) => JSON.stringify(r.metadata))}::text[],
    ${rows.map((r) => {
      const vector = vectors?.byId.get(r.id);
      return vector ? toVectorLiteral(vector) : null;
    })}::text[]
  ) AS v(id, project_id, source_id, chunk_set_id, build_id, position, text, title, heading, page_number, element_ids,
    metadata, embedding)`;
