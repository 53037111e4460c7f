import { z } from "zod";
import { THINKING_LEVELS, type ThinkingLevel } from "@/server/answers/thinking.schema";
import { requiredString } from "../query";

/** Request shapes of POST /ask-sources and /run-extraction (contract §5.13, §5.14), with the contract's texts. */

const stringList = (name: string) =>
  z
    .array(z.string({ error: `${name} must be a list of strings` }), { error: `${name} must be a list of strings` })
    .nullish();

const optionalBool = (name: string) => z.boolean({ error: `${name} must be true or false` }).nullish();

const thinkingLevel = z
  .unknown()
  .optional()
  .superRefine((v, ctx) => {
    if (v != null && !(typeof v === "string" && (THINKING_LEVELS as readonly string[]).includes(v))) {
      ctx.addIssue({
        code: "custom",
        message: `Invalid thinking_level '${String(v)}'. Valid values: ${THINKING_LEVELS.join(", ")}`,
      });
    }
  })
  .transform((v) => (v ?? undefined) as ThinkingLevel | undefined);

export const AskSourcesInput = z.object({
  question: requiredString("Invalid input: question is required"),
  conversation_id: z
    .string({ error: "conversation_id must be a string" })
    .max(200, { error: "conversation_id must be at most 200 characters" })
    .nullish(),
  reset: optionalBool("reset"),
  file_ids: stringList("file_ids"),
  file_names: stringList("file_names"),
  output_schema: z.unknown().optional(),
  thinking_level: thinkingLevel,
  include_citation_images: optionalBool("include_citation_images"),
  include_citation_markup: optionalBool("include_citation_markup"),
  /** Answer as text/event-stream events (contract §11.4). */
  stream: optionalBool("stream"),
});
export type AskSourcesInput = z.infer<typeof AskSourcesInput>;

/** Checked in the contract's order: the scope first, then the instruction, then (in the service) the schema. */
export const RunExtractionInput = z
  .object({
    file_ids: stringList("file_ids"),
    file_names: stringList("file_names"),
    user_instruction: z.unknown().optional(),
    output_schema: z.unknown().optional(),
    thinking_level: thinkingLevel,
  })
  .superRefine((v, ctx) => {
    if (!v.file_ids?.length && !v.file_names?.length) {
      ctx.addIssue({ code: "custom", message: "Invalid input: file_ids or file_names is required" });
    } else if (typeof v.user_instruction !== "string" || !v.user_instruction.trim()) {
      ctx.addIssue({ code: "custom", message: "Invalid input: user_instruction is required" });
    }
  })
  .transform((v) => ({ ...v, user_instruction: String(v.user_instruction).trim() }));
