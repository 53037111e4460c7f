import { env } from "@/server/env";

/**
 * How long a whole OCR parse may run. A document is parsed in a worker process that is killed at the parse time
 * limit (QUARRY_PARSE_TIMEOUT_S); stopping OCR a fifth earlier returns the pages read so far, with a warning,
 * instead of failing the whole build.
 */
export const ocrTimeBudgetMs = (): number => {
  let seconds = 600;
  try {
    seconds = env.QUARRY_PARSE_TIMEOUT_S;
  } catch {
    // A broken environment is reported where it matters; OCR keeps the default.
  }
  return Math.max(30_000, Math.round(seconds * 1000 * 0.8));
};
