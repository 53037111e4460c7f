import { env } from "../../env";
import { catalogModel } from "./catalog";
import type { ChatTarget } from "./complete";
import { openAiCompatibleModel, type Endpoint } from "./openai-compatible";
import type { ChatModel } from "./types";

export type * from "./types";
export { addUsage, ZERO_USAGE } from "./types";
export { CHAT_MODELS, CHAT_MODEL_IDS } from "./catalog";
export { chatComplete, type ChatResult, type ChatTarget } from "./complete";

/**
 * The chat registry, keyed by model id. The configured model (`LLM_PROVIDER=openai` with LLM_BASE_URL, LLM_API_KEY,
 * LLM_MODEL: OpenAI, Groq, Ollama, vLLM, LM Studio …) answers when no id is asked for, or when the id is its own. A
 * named model of the contract's list goes to OpenAI or Groq when that provider has a key (OPENAI_API_KEY,
 * GROQ_API_KEY, or LLM_API_KEY when LLM_BASE_URL is that provider's); without one it falls back to the configured
 * model, whose id the result then carries, so nobody is told a model answered that did not. Null: no chat model at
 * all (the embedded default), and callers use their local method.
 */

const isHost = (url: string, host: string) => {
  try {
    return new URL(url).host === host;
  } catch {
    return false;
  }
};

const configuredEndpoint = (): Endpoint | null => {
  if (env.LLM_PROVIDER !== "openai") return null;
  const mode = env.LLM_STRUCTURED_OUTPUT;
  const catalog = catalogModel(env.LLM_MODEL);
  const onOpenAi = isHost(env.LLM_BASE_URL, "api.openai.com");
  return {
    id: env.LLM_MODEL,
    provider: onOpenAi ? "openai" : isHost(env.LLM_BASE_URL, "api.groq.com") ? "groq" : "openai-compatible",
    baseUrl: env.LLM_BASE_URL,
    apiKey: env.LLM_API_KEY,
    nativeJsonSchema: mode === "json_schema" || (mode === "auto" && onOpenAi && (catalog?.nativeJsonSchema ?? true)),
    contextTokens: catalog?.contextTokens ?? null,
    timeoutMs: env.LLM_TIMEOUT_S * 1000,
  };
};

const catalogEndpoint = (modelId: string): Endpoint | null => {
  const model = catalogModel(modelId);
  if (!model) return null;
  const baseUrl = model.provider === "openai" ? env.OPENAI_BASE_URL : env.GROQ_BASE_URL;
  const ownKey = model.provider === "openai" ? env.OPENAI_API_KEY : env.GROQ_API_KEY;
  const llmKeyFits =
    env.LLM_PROVIDER === "openai" && env.LLM_API_KEY && isHost(env.LLM_BASE_URL, new URL(baseUrl).host);
  const apiKey = ownKey ?? (llmKeyFits ? env.LLM_API_KEY : undefined);
  if (!apiKey) return null;
  return {
    id: model.id,
    provider: model.provider,
    baseUrl,
    apiKey,
    nativeJsonSchema: model.nativeJsonSchema && env.LLM_STRUCTURED_OUTPUT !== "json_mode",
    contextTokens: model.contextTokens,
    timeoutMs: env.LLM_TIMEOUT_S * 1000,
  };
};

const cache = new Map<string, ChatModel>();

const modelFor = (endpoint: Endpoint): ChatModel => {
  const key = JSON.stringify(endpoint);
  let model = cache.get(key);
  if (!model) {
    if (cache.size > 32) cache.clear();
    model = openAiCompatibleModel(endpoint);
    cache.set(key, model);
  }
  return model;
};

/**
 * The environment's chat model for exactly this id (the configured model, or a named model whose provider has a
 * key), or null when the environment does not serve it: no fallback, for the resolver that tries a project's
 * default next (server/model-providers/resolve.ts).
 */
export const environmentChatModel = (modelId: string): ChatModel | null => {
  const configured = configuredEndpoint();
  if (configured?.id === modelId) return modelFor(configured);
  const named = catalogEndpoint(modelId);
  return named ? modelFor(named) : null;
};

/** A chat model at a dashboard provider's address (the resolver hands its decrypted key here, never stored). */
export const endpointChatModel = (target: {
  model: string;
  providerName: string;
  baseUrl: string;
  apiKey?: string;
  native: boolean;
}): ChatModel => {
  const catalog = catalogModel(target.model);
  const mode = env.LLM_STRUCTURED_OUTPUT;
  return modelFor({
    id: target.model,
    provider: target.providerName,
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    nativeJsonSchema:
      mode === "json_schema" || (mode === "auto" && target.native && (catalog?.nativeJsonSchema ?? true)),
    contextTokens: catalog?.contextTokens ?? null,
    timeoutMs: env.LLM_TIMEOUT_S * 1000,
  });
};

export const getChatModel = (modelId?: string | null): ChatModel | null => {
  const configured = configuredEndpoint();
  if (modelId && modelId !== configured?.id) {
    const named = catalogEndpoint(modelId);
    if (named) return modelFor(named);
  }
  return configured ? modelFor(configured) : null;
};

/** The name of the setting that turns chat on, for "configure a model" errors. */
export const CHAT_SETTING_HINT = "LLM_PROVIDER=openai with LLM_BASE_URL, LLM_API_KEY and LLM_MODEL";

/**
 * The environment's chat target for exactly this id (the configured model, or a named model whose provider has a
 * key), as plain data, or null: environmentChatModel's counterpart for build-time calls.
 */
export const environmentChatTarget = (modelId: string): ChatTarget | null => {
  const configured = configuredEndpoint();
  const endpoint = configured?.id === modelId ? configured : catalogEndpoint(modelId);
  return endpoint
    ? { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, model: endpoint.id, provider: endpoint.provider }
    : null;
};

/**
 * The configured chat model as plain data, for build-time calls (enrichment's annotations through chatComplete), or
 * null when Quarry runs with its local model-free methods.
 */
export const getChatTarget = (): ChatTarget | null =>
  env.LLM_PROVIDER === "openai" ? { baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL } : null;
