import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { isProviderError } from "@/server/providers/errors";
import { openAiCompatibleModel } from "@/server/providers/chat/openai-compatible";
import type { ChatContent, ChatMessage } from "@/server/providers/chat/types";

export type { ChatContent, ChatMessage };

/**
 * Build-time chat calls (enrichment, the vision page reader) through the provider layer's client. They run inside
 * jobs, so a failed call is not retried here (the job's step decides); its error becomes UNPROCESSABLE with the
 * model's name, status and message, so a build says why it failed. The API key never appears in them.
 */

/** An OpenAI-compatible chat completions endpoint (OpenAI, Groq, Ollama, vLLM …). */
export type ChatModel = { baseUrl: string; apiKey?: string; model: string };

/** The configured text model, or null when Quarry runs with its local model-free methods. */
export const llmModel = (): ChatModel | null =>
  env.LLM_PROVIDER === "openai" ? { baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL } : null;

/** The configured vision model (for `agentic`), or null. */
export const visionModel = (): ChatModel | null =>
  env.VISION_MODEL
    ? {
        baseUrl: env.VISION_BASE_URL ?? env.LLM_BASE_URL,
        apiKey: env.VISION_API_KEY ?? env.LLM_API_KEY,
        model: env.VISION_MODEL,
      }
    : null;

export type ChatResult = { text: string; model: string };

export const chatComplete = async (
  target: ChatModel,
  {
    messages,
    json = false,
    maxTokens,
    temperature = 0,
    timeoutMs = 120_000,
  }: { messages: ChatMessage[]; json?: boolean; maxTokens?: number; temperature?: number; timeoutMs?: number },
): Promise<ChatResult> => {
  const model = openAiCompatibleModel({
    id: target.model,
    provider: "openai-compatible",
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    nativeJsonSchema: false,
    timeoutMs,
  });
  try {
    const result = await model.generate({
      messages,
      temperature,
      maxTokens,
      responseFormat: json ? { type: "json" } : undefined,
      retries: 0,
    });
    return { text: result.text, model: result.model };
  } catch (error) {
    if (!isProviderError(error)) throw error;
    const message =
      error.status !== null
        ? `The model ${target.model} failed (HTTP ${error.status}): ${error.remoteMessage ?? error.message}`
        : error.message;
    throw new AppError("UNPROCESSABLE", message, { cause: error });
  }
};
