import { z } from "zod";

/**
 * The wire shapes of answers: the citation and usage objects (contract §2.7) and the streamed events (§11.4). The
 * ask endpoint and the flow run emit the same events, so they are defined once, here, without server imports (the
 * dashboard parses them in the browser). A flow run adds its own `node` events beside these.
 */

export const CitationSchema = z.object({
  index: z.number().int().min(1),
  file_id: z.string().nullable(),
  file_name: z.string().nullable(),
  page_number: z.number().int().nullable(),
  section_number: z.number().int().nullable(),
  element_id: z.string().nullable(),
  text_preview: z.string().nullable(),
  image_base64: z.string().nullable(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const UsageSchema = z.object({
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  om_tokens_in: z.number().int(),
  om_tokens_out: z.number().int(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** POST /ask-sources 200 (contract §5.13), plus `model`: which model (or local method) answered. */
export const AskResponseSchema = z.object({
  answer: z.string(),
  conversation_id: z.string(),
  citations: z.array(CitationSchema).nullable(),
  structured_output: z.record(z.string(), z.unknown()).nullable(),
  raw_json: z.string().nullable(),
  elapsed_s: z.number().nullable(),
  usage: UsageSchema.nullable(),
  model: z.string(),
});
export type AskResponse = z.infer<typeof AskResponseSchema>;

export const TokenEventSchema = z.object({ type: z.literal("token"), text: z.string() });
export const CitationEventSchema = z.object({ type: z.literal("citation"), citation: CitationSchema });
export const ErrorEventSchema = z.object({ type: z.literal("error"), detail: z.string() });
/** `response` is the whole response object of the endpoint that streamed (an ask response, a flow run's). */
export const DoneEventSchema = z.object({ type: z.literal("done"), response: z.record(z.string(), z.unknown()) });

export const AnswerEventSchema = z.discriminatedUnion("type", [
  TokenEventSchema,
  CitationEventSchema,
  DoneEventSchema,
  ErrorEventSchema,
]);
export type AnswerEvent = z.infer<typeof AnswerEventSchema>;

/** Splits a text/event-stream body into the JSON payloads of its frames (for clients and tests). */
export const parseSseFrames = (text: string): unknown[] =>
  text
    .split(/\r?\n\r?\n/)
    .map((frame) =>
      frame
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n"),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data));
