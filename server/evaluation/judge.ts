import { z } from "zod";
import { errorMessage } from "../errors";
import type { ChatModel } from "../providers/chat";
import { isProviderError } from "../providers/errors";

/**
 * The judge: the configured chat model asked, with structured JSON output, for the verdicts the RAGAS metrics are
 * computed from (./metrics.ts). One call per metric and case (RAGAS asks once per passage for context precision; one
 * call with the numbered passages is the same question at a fraction of the calls). Every verdict carries the
 * judge's reason, kept with the case.
 *
 * The system prompt opens with "You are an evaluation judge" and names the task, so a stand-in model
 * (server/testing/fake-chat-server.ts) can answer the way a judge would.
 */

export type JudgeInput = { question: string; reference: string; answer: string; passages: string[] };

/** The judge's reply could not be used: the metric is null with this reason (retrying would not help). */
export class JudgeError extends Error {}

const PASSAGE_CHARS = 2_000;

const passagesBlock = (passages: string[]) =>
  passages.map((p, i) => `[${i + 1}] ${p.slice(0, PASSAGE_CHARS).replace(/\s+/g, " ").trim()}`).join("\n");

const ask = async <T>(
  model: ChatModel,
  task: string,
  instructions: string,
  user: string,
  schema: z.ZodType<T>,
  signal?: AbortSignal,
): Promise<T> => {
  let text: string;
  try {
    const result = await model.generate({
      messages: [
        { role: "system", content: `You are an evaluation judge. Task: ${task}.\n${instructions}` },
        { role: "user", content: user },
      ],
      responseFormat: { type: "json_schema", name: task.replace(/\W+/g, "_"), schema: z.toJSONSchema(schema) },
      temperature: 0,
      maxTokens: 2_000,
      retries: 0,
      signal,
    });
    if (result.finishReason === "length") throw new JudgeError("the judge's reply was cut at its token limit");
    text = result.text;
  } catch (error) {
    // Network errors, 429 and 5xx are retried by the job; a refused request is a reason, not a retry.
    if (isProviderError(error) && !error.retryable) throw new JudgeError(`the judge refused: ${error.message}`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new JudgeError("the judge did not answer in JSON");
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) throw new JudgeError(`the judge's reply had the wrong shape (${errorMessage(checked.error)})`);
  return checked.data;
};

const Verdicts = z.object({
  verdicts: z.array(z.object({ passage: z.number().int(), useful: z.boolean(), reason: z.string() })),
});

/** v_k per passage: was passage k useful in arriving at the reference answer (RAGAS context precision)? */
export const judgeContextPrecision = async (model: ChatModel, input: JudgeInput, signal?: AbortSignal) => {
  const reply = await ask(
    model,
    "context precision",
    "For every numbered passage, say whether it was useful in arriving at the reference answer to the question. " +
      'Answer with {"verdicts": [{"passage": <number>, "useful": true|false, "reason": "<one sentence>"}]}, one ' +
      "entry per passage, in order.",
    `Question:\n${input.question}\n\nReference answer:\n${input.reference}\n\nPassages:\n${passagesBlock(input.passages)}`,
    Verdicts,
    signal,
  );
  // Missing verdicts count as not useful; extra or repeated ones are ignored.
  return input.passages.map((_, i) => {
    const v = reply.verdicts.find((x) => x.passage === i + 1);
    return { useful: v?.useful ?? false, reason: v?.reason ?? "the judge gave no verdict for this passage" };
  });
};

const RecallClaims = z.object({
  claims: z.array(z.object({ claim: z.string(), attributed: z.boolean(), reason: z.string() })),
});
const FaithfulnessClaims = z.object({
  claims: z.array(z.object({ claim: z.string(), supported: z.boolean(), reason: z.string() })),
});

/** Claims of the reference answer, each attributable to the passages or not (RAGAS context recall). */
export const judgeContextRecall = async (model: ChatModel, input: JudgeInput, signal?: AbortSignal) => {
  const reply = await ask(
    model,
    "context recall",
    "Break the reference answer into its individual claims. For each claim, say whether it can be attributed to " +
      'the numbered passages. Answer with {"claims": [{"claim": "<text>", "attributed": true|false, "reason": ' +
      '"<one sentence>"}]}.',
    `Question:\n${input.question}\n\nReference answer:\n${input.reference}\n\nPassages:\n${passagesBlock(input.passages)}`,
    RecallClaims,
    signal,
  );
  return reply.claims.map((c) => ({ claim: c.claim, holds: c.attributed, reason: c.reason }));
};

/** Claims of the generated answer, each supported by the passages or not (RAGAS faithfulness). */
export const judgeFaithfulness = async (model: ChatModel, input: JudgeInput, signal?: AbortSignal) => {
  const reply = await ask(
    model,
    "faithfulness",
    "Break the answer into its individual claims (ignore citation marks like [1]). For each claim, say whether the " +
      'numbered passages support it. Answer with {"claims": [{"claim": "<text>", "supported": true|false, ' +
      '"reason": "<one sentence>"}]}.',
    `Question:\n${input.question}\n\nAnswer:\n${input.answer}\n\nPassages:\n${passagesBlock(input.passages)}`,
    FaithfulnessClaims,
    signal,
  );
  return reply.claims.map((c) => ({ claim: c.claim, holds: c.supported, reason: c.reason }));
};

export const GENERATED_QUESTIONS = 3;

const Questions = z.object({ questions: z.array(z.string()), noncommittal: z.boolean(), reason: z.string() });

/** Questions the answer would answer, and whether it is noncommittal (RAGAS answer relevancy). */
export const judgeAnswerQuestions = async (model: ChatModel, input: JudgeInput, signal?: AbortSignal) => {
  const reply = await ask(
    model,
    "answer relevancy",
    `Write ${GENERATED_QUESTIONS} different questions that the answer below answers, and say whether the answer is ` +
      'noncommittal (evasive, vague or "I don\'t know"). Answer with {"questions": ["..."], "noncommittal": ' +
      'true|false, "reason": "<one sentence>"}.',
    `Answer:\n${input.answer}`,
    Questions,
    signal,
  );
  return { ...reply, questions: reply.questions.filter((q) => q.trim()).slice(0, GENERATED_QUESTIONS) };
};
