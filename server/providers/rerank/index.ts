import { env } from "../../env";
import { createHttpReranker } from "./http-reranker";
import { createLocalReranker } from "./local-reranker";
import type { Reranker } from "./types";

export type { Reranker, RerankPassage } from "./types";
export { LOCAL_RERANK_MODEL } from "./local-reranker";

let cached: { key: string; reranker: Reranker } | null = null;

/** The reranker the environment configures: a `/rerank` API when RERANK_BASE_URL is set, else the local one. */
export const getReranker = (): Reranker => {
  const key = [env.RERANK_BASE_URL ?? "", env.RERANK_MODEL, env.RERANK_API_KEY ?? ""].join("|");
  if (cached?.key === key) return cached.reranker;
  const reranker = env.RERANK_BASE_URL
    ? createHttpReranker({ baseUrl: env.RERANK_BASE_URL, model: env.RERANK_MODEL, apiKey: env.RERANK_API_KEY })
    : createLocalReranker();
  cached = { key, reranker };
  return reranker;
};
