/**
 * A reranker reorders retrieved passages by how well each answers the query. `score` on a passage is the
 * first-stage (hybrid) score in [0, 1]; a model-backed reranker ignores it, the local one uses it as one signal.
 */
export type RerankPassage = { text: string; score?: number };

export type Reranker = {
  /** "http" (a `/rerank` API) or "local" (model-free, in process). */
  kind: "http" | "local";
  /** What a response names as the reranker: the model id, or the local method's name. */
  model: string;
  /** One relevance score per passage, in input order, each in [0, 1] (higher is better). */
  rerank: (query: string, passages: RerankPassage[]) => Promise<number[]>;
};
