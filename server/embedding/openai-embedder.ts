import type { Embedder } from "./types";

/**
 * Any server that speaks OpenAI's `POST /embeddings` (OpenAI, Azure-style proxies, vLLM, Ollama, LiteLLM, TEI with
 * the OpenAI route). Inputs go in batches; 429 and 5xx are retried with backoff; a failure names the status and
 * quotes the start of the response body, which is where providers explain what went wrong.
 */

export const MAX_BATCH_INPUTS = 96;
export const MAX_BATCH_CHARS = 250_000;
/** About 6k tokens: inputs past a model's context (8k for OpenAI's) are refused outright, so cut them first. */
const MAX_INPUT_CHARS = 24_000;
const MAX_ATTEMPTS = 3;
const REQUEST_TIMEOUT_MS = 60_000;
const MAX_RETRY_DELAY_MS = 30_000;

/** Published output sizes, so the dimension is known before the first call when none is configured. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

export type OpenAIEmbedderOptions = {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Requested output size (sent as `dimensions`); 0 or undefined uses the model's own. */
  dimensions?: number;
  fetch?: typeof fetch;
  /** Base delay of the exponential backoff; tests shorten it. */
  retryDelayMs?: number;
};

type EmbeddingsResponse = { data?: { embedding?: unknown; index?: number }[] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Batches that respect both the input count and the total size a provider accepts per request. */
export const batchInputs = (texts: string[]): string[][] => {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length >= MAX_BATCH_INPUTS || chars + text.length > MAX_BATCH_CHARS)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
};

const retryAfterMs = (response: Response): number | null => {
  const header = response.headers.get("retry-after");
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(seconds * 1000, MAX_RETRY_DELAY_MS);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.min(Math.max(date - Date.now(), 0), MAX_RETRY_DELAY_MS) : null;
};

const excerpt = (body: string) => body.replace(/\s+/g, " ").trim().slice(0, 300);

export const createOpenAIEmbedder = (options: OpenAIEmbedderOptions): Embedder => {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const doFetch = options.fetch ?? fetch;
  const baseDelay = options.retryDelayMs ?? 500;
  const requested = options.dimensions && options.dimensions > 0 ? options.dimensions : undefined;
  let dimension = requested ?? KNOWN_DIMENSIONS[options.model] ?? 0;

  const request = async (input: string[]): Promise<number[][]> => {
    const body = JSON.stringify({ model: options.model, input, ...(requested ? { dimensions: requested } : {}) });
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
        // Network failures and timeouts are as transient as a 503.
        lastError = `request to ${url} failed (${error instanceof Error ? error.message : String(error)})`;
        if (attempt < MAX_ATTEMPTS) await sleep(baseDelay * 2 ** (attempt - 1));
        continue;
      }
      if (response.ok) return parse(await response.json(), input.length);
      const text = await response.text().catch(() => "");
      lastError = `HTTP ${response.status} from ${url}: ${excerpt(text) || response.statusText}`;
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt === MAX_ATTEMPTS) break;
      await sleep(retryAfterMs(response) ?? baseDelay * 2 ** (attempt - 1));
    }
    throw new Error(`Embedding request failed: ${lastError}`);
  };

  const parse = (json: unknown, expected: number): number[][] => {
    const data = (json as EmbeddingsResponse)?.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new Error(
        `Embedding response from ${url} has ${Array.isArray(data) ? data.length : "no"} vectors for ${expected} inputs`,
      );
    }
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map(({ embedding }) => {
      if (!Array.isArray(embedding) || !embedding.every((v) => typeof v === "number")) {
        throw new Error(`Embedding response from ${url} is not a list of numbers (base64 output is not supported)`);
      }
      if (dimension === 0) dimension = embedding.length;
      if (embedding.length !== dimension) {
        throw new Error(
          `Embedding model ${options.model} returned ${embedding.length} dimensions, expected ${dimension}`,
        );
      }
      return embedding as number[];
    });
  };

  return {
    provider: "openai",
    model: options.model,
    get dimension() {
      return dimension;
    },
    embed: async (texts) => {
      // Providers reject empty strings; a single space embeds as "nothing" just as well.
      const inputs = texts.map((t) => (t.trim() === "" ? " " : t.slice(0, MAX_INPUT_CHARS)));
      const out: number[][] = [];
      for (const batch of batchInputs(inputs)) out.push(...(await request(batch)));
      return out;
    },
  };
};
