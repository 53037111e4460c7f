import { z } from "zod";
import { AnswerStream } from "@/server/http/answer-stream";

/** Response shapes of POST /ask-sources (contract §5.13) and POST /run-extraction (§5.14). */

/** §2.7: a citation of an answer, in a response and in a streamed `citation` event. */
export const Citation = z.strictObject({
  index: z.number().int().min(1),
  file_id: z.string().nullable(),
  file_name: z.string().nullable(),
  page_number: z.number().int().nullable(),
  section_number: z.number().int().nullable(),
  element_id: z.string().nullable(),
  text_preview: z.string().nullable(),
  image_base64: z.string().nullable(),
});
export type Citation = z.infer<typeof Citation>;

/** §2.7: the answer's tokens, and the memory's (rewriting the question) as om_*. */
export const Usage = z.strictObject({
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  om_tokens_in: z.number().int(),
  om_tokens_out: z.number().int(),
});
export type Usage = z.infer<typeof Usage>;

/** §5.13, plus `model`. `structured_output` is whatever the client's `output_schema` describes. */
export const AskResponse = z.strictObject({
  answer: z.string(),
  conversation_id: z.string(),
  citations: z.array(Citation).nullable(),
  structured_output: z.record(z.string(), z.unknown()).nullable(),
  raw_json: z.string().nullable(),
  elapsed_s: z.number().nullable(),
  usage: Usage.nullable(),
  model: z.string(),
});

export type AskResponse = z.infer<typeof AskResponse>;

/**
 * §11.4: the events of a streamed answer: `token` and `citation` while it is written, then `done` with the whole
 * response object of the endpoint that streamed (an ask response, a flow run's), or `error`.
 */
export const AnswerEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("token"), text: z.string() }),
  z.object({ type: z.literal("citation"), citation: Citation }),
  z.object({ type: z.literal("done"), response: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal("error"), detail: z.string() }),
]);
export type AnswerEvent = z.infer<typeof AnswerEvent>;

/** With `stream: true` the procedure answers with the stream itself; its events are framed by AnswerStream. */
export const AskSourcesResponse = z.union([AskResponse, z.instanceof(AnswerStream)]);

export const RunExtractionResponse = z.strictObject({
  file_ids: z.array(z.string()),
  file_names: z.array(z.string()),
  structured_output: z.unknown(),
  raw_json: z.string().nullable(),
  model: z.string(),
  usage: z.strictObject({ tokens_in: z.number(), tokens_out: z.number() }),
});
