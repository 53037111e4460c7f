import type { MetricKey } from "../flows/node-kinds/generation";
import type { ChatModel } from "../providers/chat";
import type { Embedder } from "../providers/embedding";
import {
  judgeAnswerQuestions,
  judgeContextPrecision,
  judgeContextRecall,
  judgeFaithfulness,
  JudgeError,
  type JudgeInput,
} from "./judge";
import {
  answerRelevancy,
  contextPrecision,
  goldPrecisionRecall,
  shareTrue,
  unavailable,
  type MetricResult,
  type RetrievedRef,
} from "./metrics";

/**
 * The four metrics of one test case at one llm/response node. Gold labels, when the case has them, give context
 * precision and recall exactly (they are ground truth, and cost nothing); otherwise the judge does. Faithfulness and
 * answer relevancy always need the judge. Without a judge, what needs one is null with the reason.
 */

export const NO_JUDGE = "no chat model configured to judge";

export type CaseToScore = {
  question: string;
  expectedAnswer: string;
  relevantFileIds: string[];
  relevantPassages: string[];
  items: RetrievedRef[];
  answer: string | null;
};

export type Scores = Record<MetricKey, MetricResult>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A judge failure the job should not retry becomes the metric's reason; anything else propagates. */
const guarded = async (work: () => Promise<MetricResult>): Promise<MetricResult> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof JudgeError) return unavailable(error.message);
    throw error;
  }
};

const claimsResult = (
  claims: { claim: string; holds: boolean; reason: string }[],
  what: { of: string; verb: string },
): MetricResult => {
  const value = shareTrue(claims.map((c) => c.holds));
  if (value === null) return unavailable(`the judge found no claims in the ${what.of}`);
  const held = claims.filter((c) => c.holds).length;
  const missing = claims.filter((c) => !c.holds);
  return {
    value,
    form: "judge",
    reason:
      `${held} of ${plural(claims.length, "claim")} of the ${what.of} ${what.verb}` +
      (missing.length ? `; not: “${missing[0]!.claim}” (${missing[0]!.reason})` : ""),
    details: claims,
  };
};

export const scoreCase = async ({
  testCase,
  judge,
  embedder,
  signal,
}: {
  testCase: CaseToScore;
  judge: ChatModel | null;
  embedder: Embedder;
  signal?: AbortSignal;
}): Promise<Scores> => {
  const { items, answer } = testCase;
  const input: JudgeInput = {
    question: testCase.question,
    reference: testCase.expectedAnswer,
    answer: answer ?? "",
    passages: items.map((i) => i.text),
  };
  const gold = goldPrecisionRecall(items, { fileIds: testCase.relevantFileIds, passages: testCase.relevantPassages });
  const noReference = "the test case has no expected answer and no gold relevant documents or passages";

  const precision = async (): Promise<MetricResult> => {
    if (gold) return gold.precision;
    if (!judge) return unavailable(NO_JUDGE);
    if (!input.reference.trim()) return unavailable(noReference);
    if (!items.length) return unavailable("nothing was retrieved");
    return guarded(async () => {
      const verdicts = await judgeContextPrecision(judge, input, signal);
      const value = contextPrecision(verdicts.map((v) => v.useful))!;
      const useful = verdicts.flatMap((v, i) => (v.useful ? [i + 1] : []));
      return {
        value,
        form: "judge",
        reason: useful.length
          ? `${useful.length} of ${plural(items.length, "passage")} useful for the reference answer (ranks ${useful.join(", ")})`
          : `none of the ${plural(items.length, "passage")} is useful for the reference answer`,
        details: verdicts,
      };
    });
  };

  const recall = async (): Promise<MetricResult> => {
    if (gold) return gold.recall;
    if (!judge) return unavailable(NO_JUDGE);
    if (!input.reference.trim()) return unavailable(noReference);
    return guarded(async () =>
      claimsResult(await judgeContextRecall(judge, input, signal), {
        of: "reference answer",
        verb: "can be attributed to the retrieved passages",
      }),
    );
  };

  const faithfulness = async (): Promise<MetricResult> => {
    if (!judge) return unavailable(NO_JUDGE);
    if (!answer?.trim()) return unavailable("the node produced no answer");
    if (!items.length) return unavailable("nothing was retrieved to check the answer against");
    return guarded(async () =>
      claimsResult(await judgeFaithfulness(judge, input, signal), {
        of: "answer",
        verb: "are supported by the retrieved passages",
      }),
    );
  };

  const relevancy = async (): Promise<MetricResult> => {
    if (!judge) return unavailable(NO_JUDGE);
    if (!answer?.trim()) return unavailable("the node produced no answer");
    return guarded(async () => {
      const reply = await judgeAnswerQuestions(judge, input, signal);
      if (!reply.questions.length) return unavailable("the judge generated no questions from the answer");
      const [q, ...generated] = await embedder.embed([testCase.question, ...reply.questions]);
      const value = answerRelevancy(q!, generated, reply.noncommittal)!;
      return {
        value,
        form: "judge",
        reason: reply.noncommittal
          ? `the judge found the answer noncommittal (${reply.reason})`
          : `mean cosine similarity (${embedder.model}) of the question to ${plural(generated.length, "question")} generated from the answer`,
        details: { questions: reply.questions, noncommittal: reply.noncommittal },
      };
    });
  };

  // Sequential: one judge call at a time per case keeps a rate-limited model's 429s rare.
  return {
    contextual_precision: await precision(),
    contextual_recall: await recall(),
    answer_relevancy: await relevancy(),
    faithfulness: await faithfulness(),
  };
};
