import { reembeddingProgress } from "./reembedding";
import { resolveEmbedder, resolveReranker } from "../model-providers/resolve";
import { keywordEngine } from "./keyword-engine";
import { SEARCH_TYPES } from "./search-type.schema";

/**
 * What GET /config says about retrieval: which engines and models serve searches, and the project's re-embedding
 * after a model change while one runs.
 */
export const retrievalConfig = async (projectId: string) => {
  const embedder = await resolveEmbedder(projectId);
  const reranker = await resolveReranker(projectId);
  const reembedding = await reembeddingProgress(projectId);
  return {
    search_types: [...SEARCH_TYPES],
    keyword_engine: await keywordEngine(),
    // Named as POST /prebuilt-rag names them (contract §5.15): the model id alone, so a client can compare the two.
    embedding_model: embedder.model,
    reranker: reranker.model,
    reembedding: reembedding
      ? { status: reembedding.status, done_chunks: reembedding.doneChunks, total_chunks: reembedding.totalChunks }
      : null,
  };
};
