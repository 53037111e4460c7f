import { postJson } from "../post-json";
import type { Reranker } from "./types";

/**
 * Any reranking API shaped like Cohere's `POST /rerank` (Cohere v1 and v2, Jina, Voyage, vLLM, LiteLLM): the request
 * is `{model, query, documents, top_n}`, the answer one relevance score per document index (`results` or `data`, or
 * a bare list as Hugging Face TEI answers). Scores outside [0, 1] (raw logits) are mapped through the logistic
 * function.
 * Retries and failure texts are those of every provider call (`postJson`).
 */

const MAX_ATTEMPTS = 3;
const REQUEST_TIMEOUT_MS = 30_000;
/** Providers cap a request at 1,000 documents (Cohere) and a few thousand tokens each. */
const MAX_DOCUMENTS = 1000;
const MAX_DOCUMENT_CHARS = 16_000;

export type HttpRerankerOptions = {
  baseUrl: string;
  model: string;
  apiKey?: string;
  fetch?: typeof fetch;
  retryDelayMs?: number;
  /** A dashboard provider's name, for the usage records. */
  providerName?: string;
};

type Result = { index?: unknown; relevance_score?: unknown; score?: unknown };

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** The result list of any of the known response shapes. */
const resultsOf = (json: unknown): Result[] | null => {
  if (Array.isArray(json)) return json as Result[]; // TEI
  const body = json as { results?: unknown; data?: unknown } | null;
  if (Array.isArray(body?.results)) return body.results as Result[]; // Cohere, Jina, vLLM, LiteLLM
  if (Array.isArray(body?.data)) return body.data as Result[]; // Voyage
  return null;
};

export const parseRerankResponse = (json: unknown, count: number, url: string): number[] => {
  const results = resultsOf(json);
  if (!results) throw new Error(`Rerank response from ${url} has no results list`);
  const raw = new Array<number | null>(count).fill(null);
  for (const r of results) {
    const value = typeof r.relevance_score === "number" ? r.relevance_score : r.score;
    if (typeof r.index === "number" && Number.isInteger(r.index) && r.index >= 0 && r.index < count) {
      if (typeof value === "number" && Number.isFinite(value)) raw[r.index] = value;
    }
  }
  if (raw.every((v) => v === null)) throw new Error(`Rerank response from ${url} scored none of ${count} documents`);
  const logits = raw.some((v) => v !== null && (v < 0 || v > 1));
  // A document the provider left out (top_n) ranks below every scored one.
  return raw.map((v) => (v === null ? 0 : logits ? logistic(v) : v));
};

export const createHttpReranker = (options: HttpRerankerOptions): Reranker => {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/rerank`;

  const request = async (query: string, documents: string[]): Promise<number[]> => {
    const json = await postJson({
      url,
      body: { model: options.model, query, documents, top_n: documents.length },
      apiKey: options.apiKey,
      fetch: options.fetch,
      attempts: MAX_ATTEMPTS,
      timeoutMs: REQUEST_TIMEOUT_MS,
      retryDelayMs: options.retryDelayMs,
      what: "Rerank request",
      record: {
        capability: "rerank",
        model: options.model,
        provider: options.providerName,
        inputChars: documents.reduce((n, d) => n + d.length + query.length, 0),
      },
    });
    return parseRerankResponse(json, documents.length, url);
  };

  return {
    kind: "http",
    model: options.model,
    rerank: async (query, passages) => {
      if (passages.length === 0) return [];
      const documents = passages.slice(0, MAX_DOCUMENTS).map((p) => p.text.slice(0, MAX_DOCUMENT_CHARS) || " ");
      const scores = await request(query, documents);
      return passages.map((_, i) => scores[i] ?? 0);
    },
  };
};
