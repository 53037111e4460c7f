import type { RetrievedChunk } from "./types";

/** A chunk row as search queries select it (chunks joined to their source for the file name). */
export type ChunkRow = {
  id: string;
  chunk_set_id: string;
  source_id: string;
  file_name: string;
  text: string;
  title: string;
  heading: string;
  page_number: number | null;
  position: number;
  element_ids: string[] | null;
  metadata: Record<string, unknown> | null;
};

/** The one row → RetrievedChunk mapping of every search path (retrieve(), the graph's search). */
export const chunkFromRow = (
  row: ChunkRow,
  score: number,
  scores: RetrievedChunk["scores"],
  metadata: Record<string, unknown> = {},
): RetrievedChunk => ({
  chunkId: row.id,
  chunkSetId: row.chunk_set_id,
  sourceId: row.source_id,
  fileName: row.file_name,
  text: row.text,
  title: row.title,
  heading: row.heading,
  pageNumber: row.page_number,
  position: row.position,
  elementIds: row.element_ids ?? [],
  metadata: { ...(row.metadata ?? {}), ...metadata },
  score,
  scores,
});
