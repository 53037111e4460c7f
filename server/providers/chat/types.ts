/** Chat models behind one interface: answers, extraction, enrichment, vision and the flow's llm nodes call it. */

export type ChatContent =
  | string
  | (
      | { type: "text"; text: string }
      | { type: "image_url"; image_url: { url: string; detail?: "low" | "high" | "auto" } }
    )[];

export type ChatMessage = { role: "system" | "user" | "assistant"; content: ChatContent };

/** Tokens one call spent, as the server reported them (0 when it did not say). */
export type ChatUsage = { tokensIn: number; tokensOut: number; cacheReadTokens: number };

export const ZERO_USAGE: ChatUsage = { tokensIn: 0, tokensOut: 0, cacheReadTokens: 0 };

export const addUsage = (a: ChatUsage, b: ChatUsage): ChatUsage => ({
  tokensIn: a.tokensIn + b.tokensIn,
  tokensOut: a.tokensOut + b.tokensOut,
  cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
});

/**
 * Structured output. `json_schema` uses the server's native schema mode when the model has one and otherwise JSON
 * mode with the schema written into the prompt; `json` asks for any JSON object.
 */
export type ResponseFormat = { type: "json" } | { type: "json_schema"; name?: string; schema: Record<string, unknown> };

/** `length` means the reply was cut at the token limit: a JSON reply is then incomplete. */
export type FinishReason = "stop" | "length" | "content_filter" | "tool_calls" | "other";

export type GenerateOptions = {
  messages: ChatMessage[];
  responseFormat?: ResponseFormat;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Attempts after the first for retryable failures; default 2 (0 inside jobs, whose retries take over). */
  retries?: number;
};

export type GenerateResult = { text: string; usage: ChatUsage; finishReason: FinishReason; model: string };

/** A streamed reply: text deltas, then one `finish` part with the usage. */
export type StreamPart =
  { type: "text"; text: string } | { type: "finish"; usage: ChatUsage; finishReason: FinishReason; model: string };

export type ChatModel = {
  /** The model id as the server knows it (`gpt-4o-mini`, `llama3.1:8b`, ...): what responses name. */
  id: string;
  /** openai | groq | openai-compatible */
  provider: string;
  /** Whether `json_schema` goes to the server natively (else JSON mode + the schema in the prompt). */
  nativeJsonSchema: boolean;
  /** Context window in tokens, when known. */
  contextTokens: number | null;
  generate: (options: GenerateOptions) => Promise<GenerateResult>;
  stream: (options: GenerateOptions) => AsyncIterable<StreamPart>;
};
