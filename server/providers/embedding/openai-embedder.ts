import { postJson } from "../post-json";
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
  /** A dashboard provider's name: its embedding index and usage records are its own. */
  providerName?: string;
};

type EmbeddingsResponse = { data?: { embedding?: unknown; index?: number }[] };

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

export const createOpenAIEmbedder = (options: OpenAIEmbedderOptions): Embedder => {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const requested = options.dimensions && options.dimensions > 0 ? options.dimensions : undefined;
  let dimension = requested ?? KNOWN_DIMENSIONS[options.model] ?? 0;

  const request = async (input: string[]): Promise<number[][]> => {
    const json = await postJson({
      url,
      body: { model: options.model, input, ...(requested ? { dimensions: requested } : {}) },
      apiKey: options.apiKey,
      fetch: options.fetch,
      attempts: MAX_ATTEMPTS,
      timeoutMs: REQUEST_TIMEOUT_MS,
      retryDelayMs: options.retryDelayMs,
      what: "Embedding request",
      record: {
        capability: "embedding",
        model: options.model,
        provider: options.providerName,
        inputChars: input.reduce((n, t) => n + t.length, 0),
      },
    });
    return parse(json, input.length);
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
    provider: options.providerName ?? "openai",
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
