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
 */

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
