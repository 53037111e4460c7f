import { z } from "zod";
import { defineKind, RETRIEVERS } from "./define";
import { rangeField } from "./fields";

const fields = {
  /**
   * A model id: the contract's named models (§2.10) or any model a provider of the team serves, which only the
   * server knows (flows/service.ts checks it on PATCH). Null: the project's default chat model.
   */
  model: z
    .string({ error: "model must be a string" })
    .trim()
    .min(1, { error: "model cannot be empty" })
    .max(200)
    .nullable(),
  promptId: z.string({ error: "promptId must be a string" }).min(1).max(100),
  temperature: rangeField("temperature must be between 0.0 and 2.0", { min: 0, max: 2 }),
};
const defaults = { model: "gpt-4o-mini", promptId: "default_retrieval_prompt", temperature: 0 } as const;
/** The quality metrics an llm/response node shows, as its latest evaluation computed them (server/evaluation/). */
export const METRIC_KEYS = ["contextual_precision", "contextual_recall", "answer_relevancy", "faithfulness"] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];

/** A node result's counters (../node-results.ts): the metrics under their camelCase names. */
const resultFields = [
  "totalResponses",
  "avgResponseLength",
  "avgProcessingTime",
  "contextualPrecision",
  "contextualRecall",
  "answerRelevancy",
  "faithfulness",
] as const;

/** Generates text from the retrieved passages with its prompt; a response node downstream returns it. */
export const llmKind = defineKind({
  kind: "llm",
  label: "LLM",
  fields,
  defaults,
  upstream: [...RETRIEVERS, "reranking"],
  downstream: ["response"],
  resultFields,
});

/**
 * The flow's required end (contract §11.3): its text is the run's `answer`, generated here unless an llm node
 * upstream generated it already.
 */
export const responseKind = defineKind({
  kind: "response",
  label: "Response",
  fields,
  defaults,
  upstream: [...RETRIEVERS, "reranking", "llm"],
  downstream: [],
  resultFields,
});
