import { env } from "@/server/env";
import { AppError, errorMessage } from "@/server/errors";

/** An OpenAI-compatible chat completions endpoint (OpenAI, Groq, Ollama, vLLM …). */
export type ChatModel = { baseUrl: string; apiKey?: string; model: string };

export type ChatContent =
  | string
  | (
      | { type: "text"; text: string }
      | { type: "image_url"; image_url: { url: string; detail?: "low" | "high" | "auto" } }
    )[];

export type ChatMessage = { role: "system" | "user" | "assistant"; content: ChatContent };

/** The configured text model, or null when Quarry runs with its local model-free answerer. */
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

/**
 * One chat completion. Errors of the remote server become UNPROCESSABLE with its status and message, so a build
 * says why it failed; the API key never appears in them.
 */
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
  const url = `${target.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: target.model,
        messages,
        temperature,
        ...(maxTokens ? { max_tokens: maxTokens } : {}),
        ...(json ? { response_format: { type: "json_object" } } : {}),
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new AppError(
      "UNPROCESSABLE",
      `The model server at ${new URL(url).host} did not answer (${errorMessage(error)})`,
    );
  }
  const body = (await response.json().catch(() => null)) as {
    model?: string;
    choices?: { message?: { content?: string | null } }[];
    error?: { message?: string };
  } | null;
  if (!response.ok) {
    const detail = body?.error?.message ?? response.statusText;
    throw new AppError("UNPROCESSABLE", `The model ${target.model} failed (HTTP ${response.status}): ${detail}`);
  }
  const text = body?.choices?.[0]?.message?.content;
  if (typeof text !== "string") throw new AppError("UNPROCESSABLE", `The model ${target.model} returned no message`);
  return { text, model: body?.model ?? target.model };
};
