import type { Reranker } from "./types";

/**
 * Any reranking API shaped like Cohere's `POST /rerank` (Cohere v1 and v2, Jina, Voyage, vLLM, LiteLLM): the request
 * is `{model, query, documents, top_n}`, the answer one relevance score per document index (`results` or `data`, or
 * a bare list as Hugging Face TEI answers). Scores outside [0, 1] (raw logits) are mapped through the logistic
 * function.
 * 429 and 5xx are retried with backoff; a failure names the status and the start of the body.
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
};

type Result = { index?: unknown; relevance_score?: unknown; score?: unknown };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const excerpt = (body: string) => body.replace(/\s+/g, " ").trim().slice(0, 300);
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
  const doFetch = options.fetch ?? fetch;
  const baseDelay = options.retryDelayMs ?? 500;

  const request = async (query: string, documents: string[]): Promise<number[]> => {
    const body = JSON.stringify({ model: options.model, query, documents, top_n: documents.length });
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let lastError = "";
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, {
          method: "POST",
          headers,
          body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        lastError = `request to ${url} failed (${error instanceof Error ? error.message : String(error)})`;
        if (attempt < MAX_ATTEMPTS) await sleep(baseDelay * 2 ** (attempt - 1));
        continue;
      }
      if (response.ok) return parseRerankResponse(await response.json(), documents.length, url);
      const text = await response.text().catch(() => "");
      lastError = `HTTP ${response.status} from ${url}: ${excerpt(text) || response.statusText}`;
      if (!(response.status === 429 || response.status >= 500) || attempt === MAX_ATTEMPTS) break;
      await sleep(baseDelay * 2 ** (attempt - 1));
    }
    throw new Error(`Rerank request failed: ${lastError}`);
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
