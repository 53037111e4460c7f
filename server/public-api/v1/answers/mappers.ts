import type { Answer, AnswerEvent, Citation } from "@/server/answers/events.schema";
import type { Extraction } from "@/server/extraction/extract";
import type { ChatUsage } from "@/server/providers/chat";
import type { AnswerEvent as AnswerEventDto, AskResponse, Citation as CitationDto, Usage } from "./responses.schema";

/** A citation (contract §2.7), in an ask response, a flow run's response and a streamed `citation` event. */
export const toCitation = (citation: Citation): CitationDto => ({
  index: citation.index,
  file_id: citation.fileId,
  file_name: citation.fileName,
  page_number: citation.pageNumber,
  section_number: citation.sectionNumber,
  element_id: citation.elementId,
  text_preview: citation.textPreview,
  image_base64: citation.imageBase64,
});

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
  citations: answer.citations.map(toCitation),
  structured_output: answer.structuredOutput,
  raw_json: answer.rawJson,
  elapsed_s: answer.elapsedSeconds,
  usage: toUsage(answer.usage, answer.memoryUsage),
  model: answer.model,
});

/** A streamed answer's event (§11.4): `done` carries the whole ask response. */
export const toAnswerEvent = (event: AnswerEvent): AnswerEventDto => {
  switch (event.type) {
    case "citation":
      return { type: "citation", citation: toCitation(event.citation) };
    case "done":
      return { type: "done", response: toAskResponse(event.response) };
    default:
      return event;
  }
};

/** POST /run-extraction 200 (contract §5.14). */
export const toExtractionResponse = (extraction: Extraction) => ({
  file_ids: extraction.sourceIds,
  file_names: extraction.fileNames,
  structured_output: extraction.structuredOutput,
  raw_json: extraction.rawJson,
  model: extraction.model,
  usage: { tokens_in: extraction.usage.tokensIn, tokens_out: extraction.usage.tokensOut },
});
