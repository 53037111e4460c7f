import { env } from "@/server/env";

/**
 * How long a page-by-page parse (OCR, a vision model) may run. A document is parsed in a worker process that is
 * killed at the parse time limit (QUARRY_PARSE_TIMEOUT_S); stopping a fifth earlier returns the pages read so far,
 * with a warning, instead of failing the whole build.
 */
export const parseTimeBudgetMs = (): number => {
  let seconds = 1800;
  try {
    seconds = env.QUARRY_PARSE_TIMEOUT_S;
  } catch {
    // A broken environment is reported where it matters; the parse keeps the default.
  }
  return Math.max(30_000, Math.round(seconds * 1000 * 0.8));
};
