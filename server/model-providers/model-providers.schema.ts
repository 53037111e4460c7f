import { z } from "zod";

/**
 * Model providers as the dashboard and the procedures both see them (isomorphic: no server imports). A provider is
 * an address Quarry calls with an optional key; what it serves is discovered, not typed in.
 */

export const PROVIDER_KINDS = [
  "openai",
  "groq",
  "openai_compatible",
  "embedding",
  "rerank",
  "vision",
  "speech",
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const KIND_LABELS: Record<ProviderKind, string> = {
  openai: "OpenAI",
  groq: "Groq",
  openai_compatible: "OpenAI-compatible (Ollama, vLLM, LM Studio, llama.cpp)",
  embedding: "Embeddings (OpenAI-compatible /embeddings)",
  rerank: "Reranker (Cohere/Jina-style /rerank)",
  vision: "Vision (OpenAI-compatible, images in chat)",
  speech: "Speech to text (OpenAI/Groq-compatible /audio/transcriptions)",
};

/** A kind's short name ("OpenAI-compatible"), and what it covers ("Ollama, vLLM, LM Studio, llama.cpp") if said. */
export const kindName = (kind: ProviderKind) => KIND_LABELS[kind].split(" (")[0]!;
export const kindScope = (kind: ProviderKind) => KIND_LABELS[kind].match(/\((.*)\)$/)?.[1];

/** The address a kind starts with in the form; the admin may change it. */
export const DEFAULT_BASE_URLS: Record<ProviderKind, string> = {
  openai: "https://api.openai.com/v1",
  groq: "https://api.groq.com/openai/v1",
  openai_compatible: "http://localhost:11434/v1",
  embedding: "https://api.openai.com/v1",
  rerank: "https://api.jina.ai/v1",
  vision: "https://api.openai.com/v1",
  speech: "https://api.openai.com/v1",
};

/** Kinds whose server is expected to list its models; the others may answer 404 on /models and still work. */
export const LISTS_MODELS: Record<ProviderKind, boolean> = {
  openai: true,
  groq: true,
  openai_compatible: true,
  embedding: true,
  rerank: false,
  vision: true,
  speech: false,
};

const ProviderName = z.string().trim().min(1, "Name the provider").max(80, "At most 80 characters");
const BaseUrl = z
  .string()
  .trim()
  .url("Enter the server's address, e.g. https://api.openai.com/v1")
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), "Only http and https addresses");
const ApiKey = z.string().trim().max(4000, "At most 4000 characters");

export const CreateProviderInput = z.object({
  kind: z.enum(PROVIDER_KINDS),
  name: ProviderName,
  baseUrl: BaseUrl,
  /** Empty: the server needs no key (a local Ollama, say). */
  apiKey: ApiKey.optional(),
});
export type CreateProviderInput = z.infer<typeof CreateProviderInput>;

export const UpdateProviderInput = z.object({
  kind: z.enum(PROVIDER_KINDS).optional(),
  name: ProviderName.optional(),
  baseUrl: BaseUrl.optional(),
  /** A new key; absent or empty keeps the saved one. */
  apiKey: ApiKey.optional(),
  /** Forget the saved key. */
  clearKey: z.boolean().optional(),
});
export type UpdateProviderInput = z.infer<typeof UpdateProviderInput>;

/** The outcome of "Test connection", kept on the provider. */
export type ConnectionTest = {
  ok: boolean;
  latencyMs: number;
  /** What a person reads: "Connected: 3 models" or why not. */
  message: string;
  /** When the test ran (ISO 8601). */
  at: string;
};

const SECRET_CHANGED = "the server secret changed; enter the key again";
/** Why a saved key cannot be used, as the page shows it beside the provider. */
export const KEY_UNREADABLE = `key unreadable: ${SECRET_CHANGED}`;
/** The same, as the sentence a connection test or a call reports. */
export const KEY_UNREADABLE_ERROR = `The saved key is unreadable: ${SECRET_CHANGED}`;
