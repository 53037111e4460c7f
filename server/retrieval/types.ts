/**
 * What every search path answers (retrieve(), a graph or RAPTOR index's search, smart-rag), apart from the code that
 * produces it, so the row mapping, the answerers and the flow nodes depend on the shape and not on one another.
 */

export type RetrievedChunk = {
  chunkId: string;
  chunkSetId: string;
  sourceId: string;
  fileName: string;
  text: string;
  /** Document title and section heading (searched with the text, not part of it). */
  title: string;
  heading: string;
  pageNumber: number | null;
  position: number;
  elementIds: string[];
  metadata: Record<string, unknown>;
  /** 0 for a document's chunk; above 0, a RAPTOR summary of that level (only a tree's own search returns one). */
  level?: number;
  /** In [0, 1], higher is better; what it is depends on the search type. */
  score: number;
  /** The parts: cosine similarity, keyword score relative to the query's best, reranker score. */
  scores: { similarity: number | null; keyword: number | null; rerank: number | null };
};
