import { db } from "../db";
import { env } from "../env";
import { AppError } from "../errors";
import type { PipelineStep } from "../sources/sources.schema";

/**
 * The per-document time budget (QUARRY_PARSE_TIMEOUT_S) for the steps of a build around parsing: fetching, enriching,
 * chunking, embedding and indexing what a document became. Parsing has its own, enforced by killing its worker
 * (parsing/worker-pool.ts). A step past the budget fails the build with a sentence naming it, so that every build
 * ends: pathological output (a few KB of compressed XML can make 200,000 elements) or a provider that never answers
 * cannot hold a build open. Work in this process cannot be killed; what a step still does after its budget writes
 * into a build that is already failed, whose chunk set is dropped.
 * The budget grows with the document: every element adds MS_PER_ELEMENT, so a large document that is still being
 * worked on is not failed for its size (a 100 MiB .txt, 318,000 elements, took 28 minutes to enrich on two cores
 * busy with other work, past the 30-minute default with the steps before it), while a step that never ends still does.
 */

const MS_PER_ELEMENT = 10;

/** The time a step after parsing may take for a document of `elements` elements. */
export const stepBudgetMs = (elements: number, baseMs: number = env.QUARRY_PARSE_TIMEOUT_S * 1000) =>
  baseMs + elements * MS_PER_ELEMENT;

/** The step budget of a build, by the number of elements its parse wrote. */
export const buildStepBudgetMs = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId }, select: { totalPartitions: true } });
  return stepBudgetMs(build?.totalPartitions ?? 0);
};

const DOING: Record<PipelineStep, string> = {
  load: "loading the build",
  acquire: "fetching the document",
  partition: "parsing",
  enrich: "enriching the elements",
  chunk: "chunking the elements",
  embed: "embedding the chunks",
  index: "indexing the chunks",
  finalize: "finalizing the build",
};

export const withinBudget = async <T>(
  step: PipelineStep,
  work: () => Promise<T>,
  budgetMs: number = env.QUARRY_PARSE_TIMEOUT_S * 1000,
): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seconds = Math.round(budgetMs / 1000);
      const message = `Building ran out of time after ${seconds} s (QUARRY_PARSE_TIMEOUT_S) while ${DOING[step]}`;
      reject(new AppError("UNPROCESSABLE", message));
    }, budgetMs);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
};

/** A step of a parsed build under the budget its document's size gives it. */
export const withinBuildBudget = async <T>(buildId: string, step: PipelineStep, work: () => Promise<T>) =>
  withinBudget(step, work, await buildStepBudgetMs(buildId));
