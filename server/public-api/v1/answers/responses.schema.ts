import { z } from "zod";
import { AnswerStream } from "@/server/http/answer-stream";

/** Response shapes of POST /ask-sources (contract §5.13) and POST /run-extraction (§5.14). */

export const Citation = z.strictObject({
  index: z.number(),
  file_id: z.string().nullable(),
  file_name: z.string().nullable(),
  page_number: z.number().nullable(),
  section_number: z.number().nullable(),
  element_id: z.string().nullable(),
  text_preview: z.string().nullable(),
  image_base64: z.string().nullable(),
});

const Usage = z.strictObject({
  tokens_in: z.number(),
  tokens_out: z.number(),
  cache_read_tokens: z.number(),
  cache_write_tokens: z.number(),
  om_tokens_in: z.number(),
  om_tokens_out: z.number(),
});

/** §5.13, plus `model`. `structured_output` is whatever the client's `output_schema` describes. */
const AskResponse = z.strictObject({
  answer: z.string(),
  conversation_id: z.string(),
  citations: z.array(Citation).nullable(),
  structured_output: z.record(z.string(), z.unknown()).nullable(),
  raw_json: z.string().nullable(),
  elapsed_s: z.number().nullable(),
  usage: Usage.nullable(),
  model: z.string(),
});

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
