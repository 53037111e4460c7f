import { env } from "../env";
import { CHAT_MODELS } from "../providers/chat/catalog";
import { keyPrefix } from "./key-crypto";
import type { ProviderKind } from "./model-providers.schema";
import type { ProviderView } from "./types";

/**
 * The providers the environment defines (LLM_*, OPENAI_API_KEY, GROQ_API_KEY, EMBEDDING_*, RERANK_*, VISION_*,
 * SPEECH_*): the install-wide defaults, listed read-only beside a team's own. What they serve is what the settings
 * name (and, for OpenAI and Groq keys, the contract's named models those providers serve), not a discovery: they are
 * not called from here.
 */

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
};

const chatKind = (baseUrl: string): ProviderKind =>
  hostOf(baseUrl) === "api.openai.com" ? "openai" : hostOf(baseUrl) === "api.groq.com" ? "groq" : "openai_compatible";

const catalogOf = (kind: ProviderKind) =>
  kind === "openai" || kind === "groq" ? CHAT_MODELS.filter((m) => m.provider === kind).map((m) => m.id) : [];

const view = (
  role: string,
  p: { kind: ProviderKind; name: string; baseUrl: string; key?: string; settings: string; models: string[] },
): ProviderView => ({
  id: `env:${role}`,
  source: "environment",
  kind: p.kind,
  name: p.name,
  baseUrl: p.baseUrl,
  keyPrefix: p.key ? keyPrefix(p.key) : null,
  keyStatus: p.key ? "ok" : "none",
  settings: p.settings,
  servedModels: [...new Set(p.models)],
  modelsFetchedAt: null,
  lastTest: null,
  updatedAt: null,
});

const chatProviders = (): ProviderView[] => {
  const out: ProviderView[] = [];
  if (env.LLM_PROVIDER === "openai") {
    const kind = chatKind(env.LLM_BASE_URL);
    out.push(
      view("chat", {
        kind,
        name: "Chat model",
        baseUrl: env.LLM_BASE_URL,
        key: env.LLM_API_KEY,
        settings: "LLM_PROVIDER, LLM_BASE_URL, LLM_API_KEY, LLM_MODEL",
        models: [env.LLM_MODEL, ...catalogOf(kind)],
      }),
    );
  }
  for (const [kind, key, baseUrl] of [
    ["openai", env.OPENAI_API_KEY, env.OPENAI_BASE_URL],
    ["groq", env.GROQ_API_KEY, env.GROQ_BASE_URL],
  ] as const) {
    if (!key) continue;
    const name = kind === "openai" ? "OpenAI" : "Groq";
    const prefix = kind.toUpperCase();
    out.push(
      view(kind, {
        kind,
        name,
        baseUrl,
        key,
        settings: `${prefix}_API_KEY, ${prefix}_BASE_URL`,
        models: catalogOf(kind),
      }),
    );
  }
  return out;
};

const endpointProviders = (): ProviderView[] => {
  const out: ProviderView[] = [];
  if (env.EMBEDDING_PROVIDER === "openai") {
    out.push(
      view("embedding", {
        kind: "embedding",
        name: "Embeddings",
        baseUrl: env.EMBEDDING_BASE_URL,
        key: env.EMBEDDING_API_KEY,
        settings: "EMBEDDING_PROVIDER, EMBEDDING_BASE_URL, EMBEDDING_API_KEY, EMBEDDING_MODEL",
        models: [env.EMBEDDING_MODEL],
      }),
    );
  }
  if (env.RERANK_BASE_URL) {
    out.push(
      view("rerank", {
        kind: "rerank",
        name: "Reranker",
        baseUrl: env.RERANK_BASE_URL,
        key: env.RERANK_API_KEY,
        settings: "RERANK_BASE_URL, RERANK_API_KEY, RERANK_MODEL",
        models: [env.RERANK_MODEL],
      }),
    );
  }
  if (env.VISION_MODEL) {
    out.push(
      view("vision", {
        kind: "vision",
        name: "Vision model",
        baseUrl: env.VISION_BASE_URL ?? env.LLM_BASE_URL,
        key: env.VISION_API_KEY ?? env.LLM_API_KEY,
        settings: "VISION_MODEL, VISION_BASE_URL, VISION_API_KEY",
        models: [env.VISION_MODEL],
      }),
    );
  }
  if (env.SPEECH_BASE_URL) {
    out.push(
      view("speech", {
        kind: "speech",
        name: "Speech to text",
        baseUrl: env.SPEECH_BASE_URL,
        key: env.SPEECH_API_KEY,
        settings: "SPEECH_BASE_URL, SPEECH_API_KEY, SPEECH_MODEL",
        models: [env.SPEECH_MODEL],
      }),
    );
  }
  return out;
};

export const environmentProviders = (): ProviderView[] => [...chatProviders(), ...endpointProviders()];
