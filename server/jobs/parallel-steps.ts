import { call, errorText, memoize, RAN, UNAVAILABLE_MAX_MS, type DriverDeps, type RunState } from "./run-state";
import { OpCode, type CallOutcome, type MemoizedStep, type OutgoingOp } from "./inngest-sdk";
import { backoffMs, wait } from "./timing";

/**
 * Steps found together (Promise.all) run side by side, each with its own retries, and memoize as they finish. Their
 * retry attempts live in memory, so after a crash an unfinished parallel step starts again from attempt 0.
 */

/**
 * Parallel steps of one run called at once. A fan-out of dozens of steps would otherwise hit the app (and whatever
 * each step calls, like an embedding API) with dozens of requests at a time.
 */
const PARALLEL_STEPS_PER_RUN = 8;

export type BranchEnd = "done" | "stopped" | "lost" | { terminal: CallOutcome & { kind: "failed" | "completed" } };

/** One planned step, called until it has a result to memoize (or the run has a final outcome). */
const runBranch = async (deps: DriverDeps, run: RunState, op: OutgoingOp): Promise<BranchEnd> => {
  let attempt = 0;
  let down = 0;
  for (;;) {
    const outcome = await call(deps, run, op.id, attempt);
    if (deps.signal.aborted && (outcome.kind !== "ops" || deps.abandoned())) return "stopped";
    let delay = 0;
    if (outcome.kind === "ops") {
      const ran = outcome.ops.find((o) => o.id === op.id && RAN.has(o.op));
      if (!ran) return "done"; // nothing memoizable; the next "step" call re-plans it
      const error = ran.error ?? { name: "Error", message: "step failed" };
      const final = ran.op === OpCode.StepFailed || attempt + 1 >= run.fn.maxAttempts;
      if (ran.op === OpCode.StepRun || final) {
        const value: MemoizedStep =
          ran.op === OpCode.StepRun ? { type: "data", data: ran.data ?? null } : { type: "error", error };
        return (await memoize(deps, run, op.id, value, false)) ? "done" : "lost";
      }
      attempt += 1;
      run.log.warn(
        { stepId: op.id, step: op.displayName, error: errorText(error), attempt },
        "parallel step errored; retrying",
      );
      delay = backoffMs(attempt, deps.backoff);
    } else if (outcome.kind === "unavailable") {
      down += 1;
      delay = backoffMs(down, { ...deps.backoff, maxMs: Math.min(deps.backoff.maxMs, UNAVAILABLE_MAX_MS) });
    } else if (outcome.kind === "retry" && attempt + 1 < run.fn.maxAttempts) {
      attempt += 1;
      delay = outcome.retryAfterMs ?? backoffMs(attempt, deps.backoff);
    } else {
      return { terminal: outcome.kind === "retry" ? { kind: "failed", error: outcome.error } : outcome };
    }
    if (!(await wait(delay, deps.signal))) return "stopped";
  }
};

/** Runs `work` over `items`, at most `size` at a time; results in item order. */
const inPool = async <T, R>(items: T[], size: number, work: (item: T) => Promise<R>) => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
};

/** Runs the planned steps, at most PARALLEL_STEPS_PER_RUN at a time; one end per step, in order. */
export const runParallel = (deps: DriverDeps, run: RunState, planned: OutgoingOp[]) =>
  inPool(planned, PARALLEL_STEPS_PER_RUN, (op) => runBranch(deps, run, op));
