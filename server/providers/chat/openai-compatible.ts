import { errorMessage } from "../../errors";
import { ProviderError, providerErrorFromResponse, withRetries } from "../errors";
import { recordChatCall } from "./record-call";
import { schemaInstruction } from "./schema-prompt";
import type {
  ChatMessage,
  ChatModel,
  ChatUsage,
  FinishReason,
  GenerateOptions,
  GenerateResult,
  StreamPart,
} from "./types";
import { ZERO_USAGE } from "./types";

/**
 * A thin client of the OpenAI chat completions protocol, which OpenAI, Groq, Ollama, vLLM, LM Studio and LiteLLM all
 * speak. One protocol covers every provider Quarry supports, so this is ~150 lines of our own instead of an SDK:
 * retries, errors and usage behave the same everywhere and we control them.
 */

export type Endpoint = {
  id: string;
  provider: string;
  baseUrl: string;
  apiKey?: string;
  nativeJsonSchema: boolean;
  contextTokens?: number | null;
  /** Per attempt; a streamed reply gets it until its first byte and between bytes. */
  timeoutMs?: number;
  /** How its calls are recorded (../usage.ts): a vision model is a chat model reading images. */
  capability?: "chat" | "vision";
};

type WireUsage = {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
};

const usageOf = (u: WireUsage | null | undefined): ChatUsage =>
  u
    ? {
        tokensIn: u.prompt_tokens ?? 0,
        tokensOut: u.completion_tokens ?? 0,
        cacheReadTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
      }
    : ZERO_USAGE;

const finishOf = (reason: string | null | undefined): FinishReason =>
  reason === "stop" || reason === "length" || reason === "content_filter" || reason === "tool_calls"
    ? reason
    : reason === "eos"
      ? "stop"
      : "other";

/** Native json_schema where the model has it; otherwise JSON mode with the schema put in the system prompt. */
const requestBody = (endpoint: Endpoint, options: GenerateOptions, stream: boolean) => {
  const format = options.responseFormat;
  let messages: ChatMessage[] = options.messages;
  let responseFormat: object | undefined;
  if (format?.type === "json") responseFormat = { type: "json_object" };
  if (format?.type === "json_schema") {
    if (endpoint.nativeJsonSchema) {
      responseFormat = {
        type: "json_schema",
        json_schema: { name: format.name ?? "output", schema: format.schema, strict: false },
      };
    } else {
      responseFormat = { type: "json_object" };
      messages = [{ role: "system", content: schemaInstruction(format.schema) }, ...messages];
    }
  }
  return {
    model: endpoint.id,
    messages,
    temperature: options.temperature ?? 0,
    ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
};

const post = async (endpoint: Endpoint, body: object, signal: AbortSignal | undefined): Promise<Response> => {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const timeout = AbortSignal.timeout(endpoint.timeoutMs ?? 120_000);
  const what = `The model ${endpoint.id} at ${new URL(url).host}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    // No answer at all (timeout, refused, reset): the next attempt may get one.
    throw new ProviderError(`${what} did not answer (${errorMessage(error)})`, { retryable: true, cause: error });
  }
  if (!response.ok) throw await providerErrorFromResponse(response, what);
  return response;
};

const generateOnce = async (endpoint: Endpoint, options: GenerateOptions): Promise<GenerateResult> =>
  withRetries(
    async () => {
      const response = await post(endpoint, requestBody(endpoint, options, false), options.signal);
      const body = (await response.json().catch(() => null)) as {
        model?: string;
        choices?: { message?: { content?: string | null }; finish_reason?: string }[];
        usage?: WireUsage;
      } | null;
      const choice = body?.choices?.[0];
      if (typeof choice?.message?.content !== "string") {
        throw new ProviderError(`The model ${endpoint.id} returned no message`, { retryable: true });
      }
      return {
        text: choice.message.content,
        usage: usageOf(body?.usage),
        finishReason: finishOf(choice.finish_reason),
        model: body?.model ?? endpoint.id,
      };
    },
    { retries: options.retries, signal: options.signal },
  );

/** Server-sent events: one `data:` payload per event, `[DONE]` at the end. */
async function* ssePayloads(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let cut: number;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) yield data;
    }
  }
}

async function* streamOnce(endpoint: Endpoint, options: GenerateOptions): AsyncIterable<StreamPart> {
  // Retried only until the reply starts: once text went out, a second attempt would repeat it.
  const response = await withRetries(() => post(endpoint, requestBody(endpoint, options, true), options.signal), {
    retries: options.retries,
    signal: options.signal,
  });
  if (!response.body) throw new ProviderError(`The model ${endpoint.id} returned no stream`, { retryable: true });
  let usage = ZERO_USAGE;
  let finishReason: FinishReason = "other";
  let model = endpoint.id;
  for await (const data of ssePayloads(response.body)) {
    if (data === "[DONE]") break;
    let chunk: {
      model?: string;
      choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
      usage?: WireUsage | null;
      error?: { message?: string };
    };
    try {
      chunk = JSON.parse(data);
    } catch {
      continue;
    }
    if (chunk.error) {
      throw new ProviderError(`The model ${endpoint.id} failed mid-stream: ${chunk.error.message}`, {
        retryable: true,
      });
    }
    if (chunk.model) model = chunk.model;
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    const text = choice?.delta?.content;
    if (text) yield { type: "text", text };
    if (choice?.finish_reason) finishReason = finishOf(choice.finish_reason);
  }
  yield { type: "finish", usage, finishReason, model };
}

const callOf = (endpoint: Endpoint, options: GenerateOptions) => ({
  capability: endpoint.capability ?? "chat",
  provider: endpoint.provider,
  model: endpoint.id,
  messages: options.messages,
  started: performance.now(),
});

/** One logical call (its retries included) is one usage record, whether it answered or failed. */
const generate = async (endpoint: Endpoint, options: GenerateOptions): Promise<GenerateResult> => {
  const call = callOf(endpoint, options);
  try {
    const result = await generateOnce(endpoint, options);
    recordChatCall(call, { ok: true, usage: result.usage, reply: result.text });
    return result;
  } catch (error) {
    recordChatCall(call, { ok: false, error });
    throw error;
  }
};

/** Recorded when the stream ends, fails, or its reader stops early (the `finally` of a generator). */
async function* stream(endpoint: Endpoint, options: GenerateOptions): AsyncIterable<StreamPart> {
  const call = callOf(endpoint, options);
  let reply = "";
  let usage: ChatUsage | null = null;
  let failure: unknown = null;
  try {
    for await (const part of streamOnce(endpoint, options)) {
      if (part.type === "text") reply += part.text;
      else usage = part.usage;
      yield part;
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    if (usage) recordChatCall(call, { ok: true, usage, reply });
    else recordChatCall(call, { ok: false, error: failure ?? new Error("the reader stopped before the end"), reply });
  }
}

export const openAiCompatibleModel = (endpoint: Endpoint): ChatModel => ({
  id: endpoint.id,
  provider: endpoint.provider,
  nativeJsonSchema: endpoint.nativeJsonSchema,
  contextTokens: endpoint.contextTokens ?? null,
  generate: (options) => generate(endpoint, options),
  stream: (options) => stream(endpoint, options),
});
