import { z } from "zod";

/**
 * What an answer is made of, as the answers domain hands it over: its citations, the whole answer, and the events of
 * an answer while it is written. Defined here without server imports, because the dashboard's chat reads them in the
 * browser as they are streamed. The public API's snake_case forms (contract §2.7, §5.13, §11.4) are built from these
 * in server/public-api/v1/answers/mappers.ts.
 */

/** One passage an answer cites: `[index]` in the answer points at it. */
export const CitationSchema = z.object({
  index: z.number().int().min(1),
  fileId: z.string().nullable(),
  fileName: z.string().nullable(),
  pageNumber: z.number().int().nullable(),
  sectionNumber: z.number().int().nullable(),
  elementId: z.string().nullable(),
  textPreview: z.string().nullable(),
  imageBase64: z.string().nullable(),
});
export type Citation = z.infer<typeof CitationSchema>;

const UsageSchema = z.object({ tokensIn: z.number(), tokensOut: z.number(), cacheReadTokens: z.number() });

/** One answer. */
export const AnswerSchema = z.object({
  answer: z.string(),
  conversationId: z.string(),
  citations: z.array(CitationSchema),
  /** Both null unless an output schema was asked for. */
  structuredOutput: z.record(z.string(), z.unknown()).nullable(),
  rawJson: z.string().nullable(),
  elapsedSeconds: z.number(),
  /** What retrieval and the answer used, and what rewriting the question from memory used. */
  usage: UsageSchema,
  memoryUsage: UsageSchema,
  /** The model id that answered, or the local method. */
  model: z.string(),
});
export type Answer = z.infer<typeof AnswerSchema>;

export const TokenEventSchema = z.object({ type: z.literal("token"), text: z.string() });
export const CitationEventSchema = z.object({ type: z.literal("citation"), citation: CitationSchema });
/** The answer is written: tokens and citations as they come. */
export type AnswerProgress = z.infer<typeof TokenEventSchema> | z.infer<typeof CitationEventSchema>;

/** A streamed answer: its progress, then `done` with the whole answer, or `error` when it failed after it began. */
export const AnswerEventSchema = z.discriminatedUnion("type", [
  TokenEventSchema,
  CitationEventSchema,
  z.object({ type: z.literal("done"), response: AnswerSchema }),
  z.object({ type: z.literal("error"), detail: z.string() }),
]);
export type AnswerEvent = z.infer<typeof AnswerEventSchema>;
