/**
 * How long a page-by-page parse (OCR, a vision model) may run. A document is parsed in a worker process that is
 * killed at the parse time limit; stopping a fifth earlier returns the pages read so far, with a warning, instead of
 * failing the whole build. The limit is the caller's (isolated.ts passes the budget of the limit it enforces).
 */
export const parseTimeBudgetFor = (parseTimeoutMs: number): number =>
  Math.max(30_000, Math.round(parseTimeoutMs * 0.8));

/** For parses whose caller names no budget: that of the default parse time limit, 30 minutes. */
export const DEFAULT_PARSE_TIME_BUDGET_MS = parseTimeBudgetFor(1800 * 1000);
