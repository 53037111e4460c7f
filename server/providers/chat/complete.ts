import { AppError } from "../../errors";
import { isProviderError } from "../errors";
import { openAiCompatibleModel } from "./openai-compatible";
import type { ChatMessage } from "./types";

/**
 * Build-time chat calls (enrichment, the vision page reader) through the chat client. They run inside jobs, so a
 * failed call is not retried here (the job's step decides); its error becomes UNPROCESSABLE with the model's name,
 * status and message, and keeps the ProviderError (with `retryable`) as its cause. The API key never appears in it.
 */

/**
 * An OpenAI-compatible chat completions endpoint (OpenAI, Groq, Ollama, vLLM …), as plain data. `provider` is the
 * name its calls are recorded under in usage (a team provider's own name); "openai-compatible" when not given.
 */
export type ChatTarget = { baseUrl: string; apiKey?: string; model: string; provider?: string };

export type ChatResult = { text: string; model: string };

export const chatComplete = async (
  target: ChatTarget,
  {
    messages,
    json = false,
    maxTokens,
    temperature = 0,
    timeoutMs = 120_000,
    capability = "chat",
  }: {
    messages: ChatMessage[];
    json?: boolean;
    maxTokens?: number;
    temperature?: number;
    timeoutMs?: number;
    /** How the call is recorded in usage. */
    capability?: "chat" | "vision";
  },
): Promise<ChatResult> => {
  const model = openAiCompatibleModel({
    id: target.model,
    provider: target.provider ?? "openai-compatible",
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    nativeJsonSchema: false,
    timeoutMs,
    capability,
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
