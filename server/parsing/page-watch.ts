/**
 * The per-page budget. A parser marks the page it is reading; in a parse worker the mark goes to the app, which
 * stops a page that runs past QUARRY_PARSE_PAGE_TIMEOUT_S (even one stuck in synchronous code, which no timer inside
 * the worker could interrupt) and parses the document again without that page. Outside a worker it does nothing.
 */

type Reporter = (page: number | null) => void;

let reporter: Reporter | null = null;

/** Set by the worker process (worker/main.ts). */
export const setPageReporter = (report: Reporter | null) => {
  reporter = report;
  depth = 0;
};

let depth = 0;

/** Runs the reading of one page under the per-page budget (the outermost mark counts when marks nest). */
export const readingPage = async <T>(page: number, work: () => Promise<T>): Promise<T> => {
  if (depth++ === 0) reporter?.(page);
  try {
    return await work();
  } finally {
    if (--depth === 0) reporter?.(null);
  }
};
