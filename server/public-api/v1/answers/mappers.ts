import type { Answer } from "@/server/answers/ask";
import type { Extraction } from "@/server/extraction/extract";
import type { AskResponse, Usage } from "@/server/answers/events.schema";
import type { ChatUsage } from "@/server/providers/chat";

/** The usage object of contract §2.7: the answer's tokens, and the memory's (rewriting the question) as om_*. */
export const toUsage = (answer: ChatUsage, memory: ChatUsage): Usage => ({
  tokens_in: answer.tokensIn,
  tokens_out: answer.tokensOut,
  cache_read_tokens: answer.cacheReadTokens + memory.cacheReadTokens,
  cache_write_tokens: 0,
  om_tokens_in: memory.tokensIn,
  om_tokens_out: memory.tokensOut,
});

/** POST /ask-sources 200 (contract §5.13), and the `done` event of a streamed answer; the dashboard reads it too. */
export const toAskResponse = (answer: Answer): AskResponse => ({
  answer: answer.answer,
  conversation_id: answer.conversationId,
  citations: answer.citations,
  structured_output: answer.structuredOutput,
  raw_json: answer.rawJson,
  elapsed_s: answer.elapsedSeconds,
  usage: toUsage(answer.usage, answer.memoryUsage),
  model: answer.model,
});

/** POST /run-extraction 200 (contract §5.14). */
export const toExtractionResponse = (extraction: Extraction) => ({
  file_ids: extraction.sourceIds,
  file_names: extraction.fileNames,
  structured_output: extraction.structuredOutput,
  raw_json: extraction.rawJson,
  model: extraction.model,
  usage: { tokens_in: extraction.usage.tokensIn, tokens_out: extraction.usage.tokensOut },
});
