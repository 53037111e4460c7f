import { NonRetriableError } from "inngest";
import { errorMessage, isFinalFailure } from "@/server/errors";

/**
 * Runs a step's work so that a failure retrying cannot fix (a document that cannot be parsed, a refused input, a
 * cancel, a reached budget) fails the run at once; internal and transient errors (database, a model's 429, 5xx or
 * timeout) are retried with the function's backoff.
 */
export const nonRetriable = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (isFinalFailure(error)) throw new NonRetriableError(errorMessage(error));
    throw error;
  }
};
