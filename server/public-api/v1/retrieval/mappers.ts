import type { RetrieveResult } from "@/server/retrieval/retrieve";
import type { RetrievedChunk } from "@/server/retrieval/types";

/** The contract's retrieved chunk (§2.6). */
export const toRetrievedChunkDto = (chunk: RetrievedChunk) => ({
  text: chunk.text,
  file_id: chunk.sourceId,
  file_name: chunk.fileName,
  page_number: chunk.pageNumber,
  score: chunk.score,
  metadata: {
    ...chunk.metadata,
    file_id: chunk.sourceId,
    file_name: chunk.fileName,
    page_number: chunk.pageNumber,
    element_id: chunk.elementIds[0] ?? null,
    chunk_id: chunk.chunkId,
    chunk_set_id: chunk.chunkSetId,
    ...(chunk.title ? { document_title: chunk.title } : {}),
    ...(chunk.heading ? { section_heading: chunk.heading } : {}),
  },
});

/** POST /prebuilt-rag's answer (contract §5.15); key order is the wire's. */
export const toPrebuiltRagResponse = (query: string, result: RetrieveResult) => {
  const chunks = result.chunks.map(toRetrievedChunkDto);
  return {
    query,
    chunks,
    total: chunks.length,
    ...(result.message ? { message: result.message } : {}),
    search_type: result.effectiveSearchType,
    keyword_engine: result.keywordEngine,
    embedding_model: result.embeddingModel,
    ...(result.reranker ? { reranker: result.reranker } : {}),
  };
};
