import type { ChatMessage } from "../chat/types";

/**
 * A vision-capable chat model, as the page reader (`agentic`, and `auto` for scans) calls it. The config is plain
 * data, so it can travel to a parse worker process and be made into a model there (client.ts).
 */

/**
 * An OpenAI-compatible chat completions endpoint whose model reads images; `provider`: the name its calls are
 * recorded under (a team provider's), "openai-compatible" when not given.
 */
export type VisionModelConfig = { baseUrl: string; apiKey?: string; model: string; provider?: string };

export type VisionReply = { text: string; model: string };

export type VisionModel = {
  /** The model id as the server knows it: what elements name as their model. */
  id: string;
  /** What a parse worker process needs to make the same model (vision/client.ts). */
  config: VisionModelConfig;
  /**
   * One call in JSON mode (page images go in the messages). Not retried here: the parse decides what a failed page
   * means. Failures are UNPROCESSABLE errors naming the model, the status and its message, with the ProviderError
   * (and its `retryable`) as their cause.
   */
  completeJson: (options: { messages: ChatMessage[]; maxTokens?: number; timeoutMs?: number }) => Promise<VisionReply>;
};
