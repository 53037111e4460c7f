import { Ajv, type ErrorObject } from "ajv";
import { jsonrepair } from "jsonrepair";
import { AppError } from "../../errors";
import { addUsage, ZERO_USAGE, type ChatMessage, type ChatModel, type ChatUsage } from "./types";

/**
 * Structured output with a chat model: asked against the schema (native json_schema or JSON mode + the schema in the
 * prompt, decided by the provider), the reply repaired when it is not quite JSON, validated with ajv, and on failure
 * one more turn that shows the model its reply and the validation errors. `rawJson` is always the model's last text.
 * A reply cut at the token limit is an error, never a half object.
 */

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const DEFAULT_MAX_TOKENS = 4096;

export type StructuredResult = {
  output: Record<string, unknown> | null;
  rawJson: string;
  usage: ChatUsage;
  model: string;
  /** Validation errors left after the repair turn (output is null then). */
  errors: string[];
};

/** JSON text → value, repairing what models commonly get wrong (code fences, trailing commas, quotes, prose). */
export const parseModelJson = (text: string): unknown => {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/```\s*$/, "");
  try {
    return JSON.parse(trimmed);
  } catch {
    const start = trimmed.indexOf("{");
    const end = trimmed.lastIndexOf("}");
    const candidate = start >= 0 && end > start ? trimmed.slice(start, end + 1) : trimmed;
    try {
      return JSON.parse(jsonrepair(candidate));
    } catch {
      return undefined;
    }
  }
};

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);

export const TRUNCATED_DETAIL = "The model's reply was cut off at its output token limit before the JSON was complete";

export const generateStructured = async ({
  model,
  schema,
  messages,
  maxTokens = DEFAULT_MAX_TOKENS,
  signal,
}: {
  model: ChatModel;
  schema: Record<string, unknown>;
  messages: ChatMessage[];
  maxTokens?: number;
  signal?: AbortSignal;
}): Promise<StructuredResult> => {
  const validate = ajv.compile(schema);
  let usage = ZERO_USAGE;
  let conversation = messages;
  let errors: string[] = [];
  let raw = "";
  let answeredBy = model.id;
  for (let turn = 0; turn < 2; turn++) {
    const result = await model.generate({
      messages: conversation,
      responseFormat: { type: "json_schema", name: "output", schema },
      maxTokens,
      signal,
    });
    usage = addUsage(usage, result.usage);
    answeredBy = result.model;
    raw = result.text;
    if (result.finishReason === "length") throw new AppError("INTERNAL", TRUNCATED_DETAIL);
    const value = parseModelJson(raw);
    if (value !== undefined && validate(value)) {
      return { output: value as Record<string, unknown>, rawJson: raw, usage, model: answeredBy, errors: [] };
    }
    errors = value === undefined ? ["the reply is not JSON"] : describeErrors(validate.errors);
    conversation = [
      ...messages,
      { role: "assistant", content: raw },
      {
        role: "user",
        content:
          `That reply does not match the JSON Schema: ${errors.join("; ")}. ` +
          "Reply again with the corrected JSON object only.",
      },
    ];
  }
  return { output: null, rawJson: raw, usage, model: answeredBy, errors };
};
