/**
 * What a parse is doing right now ("reading its ZIP package", "converting with LibreOffice"), so that a parse
 * stopped at its time limit fails with a sentence that names the step that ran out of time. In a parse worker each
 * step goes to the app (worker/main.ts), which names the last one when it stops the worker; outside a worker it does
 * nothing. A parser that names no step is reported as reading the file.
 */

type Reporter = (step: string | null) => void;

let reporter: Reporter | null = null;
let current: string | null = null;

/** Set by the worker process for each job. */
export const setStepReporter = (report: Reporter | null) => {
  reporter = report;
  current = null;
};

/** Runs `work` as the named step; when it ends, the step around it (if any) is current again. */
export const duringStep = async <T>(step: string, work: () => Promise<T> | T): Promise<T> => {
  const outer = current;
  current = step;
  reporter?.(step);
  try {
    return await work();
  } finally {
    current = outer;
    reporter?.(outer);
  }
};
