import { runParallel, type BranchEnd } from "./parallel-steps";
import { finishRun, memoizeStep, releaseRun, scheduleNext } from "./run-store";
import {
  call,
  errorText,
  leaseLost,
  memoize,
  RAN,
  remember,
  UNAVAILABLE_MAX_MS,
  type DriverDeps,
  type RunState,
} from "./run-state";
import {
  COMPLETE_ID,
  OpCode,
  SERVER_ONLY_OPS,
  sleepDelayMs,
  type MemoizedStep,
  type OutgoingOp,
  type SerializedError,
} from "./inngest-sdk";
import { backoffMs } from "./timing";

/**
 * Drives one claimed run to its next resting point (completed, failed, waiting for a retry or a sleep, or handed
 * back on shutdown), one serve() call at a time. Every memoized step is written before the next call, so whatever
 * happens to this process, the run continues from its last memoized step.
 */

/** Pending sleeps live in next_step_id as `sleep:[[hashedId, wakeAtMs], …]`: durable without a schema change. */
const SLEEP_PREFIX = "sleep:";

/** Ops attached for the Inngest server's bookkeeping, which have no local meaning. */
const IGNORED = new Set<string>([OpCode.DeferAdd, OpCode.DeferAbort, OpCode.DiscoveryRequest]);
const KNOWN = new Set<string>([...RAN, ...IGNORED, OpCode.StepPlanned, OpCode.Sleep, OpCode.RunComplete]);

const stopDriving = async (deps: DriverDeps, run: RunState) => {
  if (!deps.abandoned()) await releaseRun(deps.db, { runId: run.id, me: deps.me });
  return false;
};

/** Ends this claim; the run is picked up again, by any executor, once the delay is over. */
const reschedule = async (
  deps: DriverDeps,
  run: RunState,
  next: { stepId: string; attempt: number },
  delayMs: number,
) => {
  const delay = Math.max(0, Math.round(delayMs));
  if (!(await scheduleNext(deps.db, { runId: run.id, me: deps.me, next, delayMs: delay, release: true })))
    return leaseLost(run);
  deps.wakeIn(delay);
  return false;
};

const finish = async (deps: DriverDeps, run: RunState, output: unknown) => {
  if (!(await finishRun(deps.db, { runId: run.id, me: deps.me, status: "completed", output }))) return leaseLost(run);
  run.log.info({ steps: run.stack.length }, "run completed");
  return false;
};

const fail = async (deps: DriverDeps, run: RunState, error: SerializedError) => {
  const message = errorText(error);
  if (!(await finishRun(deps.db, { runId: run.id, me: deps.me, status: "failed", error: message })))
    return leaseLost(run);
  run.log.warn({ error: message, attempt: run.attempt }, "run failed");
  await deps.onFailed(run, error).catch((err) => run.log.error({ err }, "could not emit the function-failed event"));
  return false;
};

/** The function threw outside a step (HTTP 500): the same call again with attempt + 1, or give up. */
const retryCall = (deps: DriverDeps, run: RunState, error: SerializedError, retryAfterMs?: number) => {
  const attempt = run.attempt + 1;
  if (attempt >= run.fn.maxAttempts) return fail(deps, run, error);
  run.log.warn({ error: errorText(error), attempt }, "function errored; retrying");
  return reschedule(deps, run, { stepId: run.next, attempt }, retryAfterMs ?? backoffMs(attempt, deps.backoff));
};

const unavailable = (deps: DriverDeps, run: RunState, reason: string) => {
  const streak = (deps.unavailableStreak.get(run.id) ?? 0) + 1;
  deps.unavailableStreak.set(run.id, streak);
  const delay = backoffMs(streak, { ...deps.backoff, maxMs: Math.min(deps.backoff.maxMs, UNAVAILABLE_MAX_MS) });
  run.log.warn({ reason, streak, delayMs: delay }, "serve endpoint unavailable; will retry");
  return reschedule(deps, run, { stepId: run.next, attempt: run.attempt }, delay);
};

const encodeSleeps = (sleeps: [string, number][]) => SLEEP_PREFIX + JSON.stringify(sleeps);
const decodeSleeps = (next: string) => JSON.parse(next.slice(SLEEP_PREFIX.length)) as [string, number][];

/** Memoizes the sleeps that are over; if none is, waits (without a concurrency slot) for the first to end. */
const wakeSleeps = async (deps: DriverDeps, run: RunState) => {
  const now = Date.now();
  const sleeps = decodeSleeps(run.next);
  const due = sleeps.filter(([, at]) => at <= now);
  const rest = sleeps.filter(([, at]) => at > now);
  if (!due.length)
    return reschedule(deps, run, { stepId: run.next, attempt: 0 }, Math.min(...rest.map(([, at]) => at)) - now);
  const next = { stepId: rest.length ? encodeSleeps(rest) : "step", attempt: 0 };
  for (const [id] of due) {
    const value: MemoizedStep = { type: "data", data: null };
    if (!(await memoizeStep(deps.db, { runId: run.id, me: deps.me, stepId: id, value, next }))) return leaseLost(run);
    remember(run, id, value);
  }
  [run.next, run.attempt] = [next.stepId, next.attempt];
  return true;
};

/** A step ran (the requested one, or the only new one, which the SDK runs at once). */
const stepRan = async (deps: DriverDeps, run: RunState, op: OutgoingOp, retryAfterMs?: number) => {
  if (op.op === OpCode.StepRun)
    return (await memoize(deps, run, op.id, { type: "data", data: op.data ?? null }, true)) || leaseLost(run);
  const error = op.error ?? { name: "Error", message: "step failed" };
  const attempt = run.attempt + 1;
  if (op.op === OpCode.StepFailed || attempt >= run.fn.maxAttempts) {
    run.log.warn({ stepId: op.id, step: op.displayName, error: errorText(error) }, "step failed after its retries");
    return (await memoize(deps, run, op.id, { type: "error", error }, true)) || leaseLost(run);
  }
  run.log.warn({ stepId: op.id, step: op.displayName, error: errorText(error), attempt }, "step errored; retrying");
  return reschedule(deps, run, { stepId: op.id, attempt }, retryAfterMs ?? backoffMs(attempt, deps.backoff));
};

/** Several steps and/or sleeps found at once: remember the sleeps' deadlines, run the steps side by side. */
const fanOut = async (deps: DriverDeps, run: RunState, planned: OutgoingOp[], sleeps: OutgoingOp[]) => {
  const now = Date.now();
  const next = sleeps.length ? encodeSleeps(sleeps.map((op) => [op.id, now + sleepDelayMs(op.name, now)])) : "step";
  if (
    !(await scheduleNext(deps.db, {
      runId: run.id,
      me: deps.me,
      next: { stepId: next, attempt: 0 },
      delayMs: 0,
      release: false,
    }))
  ) {
    return leaseLost(run);
  }
  [run.next, run.attempt] = [next, 0];
  const ends = await runParallel(deps, run, planned);
  if (ends.includes("lost")) return leaseLost(run);
  if (deps.signal.aborted || ends.includes("stopped")) return stopDriving(deps, run);
  const terminal = ends.find((e): e is Extract<BranchEnd, object> => typeof e === "object");
  if (terminal?.terminal.kind === "failed") return fail(deps, run, terminal.terminal.error);
  if (terminal?.terminal.kind === "completed") return finish(deps, run, terminal.terminal.output);
  return true;
};

const handleOps = async (deps: DriverDeps, run: RunState, ops: OutgoingOp[], retryAfterMs?: number) => {
  const unsupported = ops.filter((op) => !KNOWN.has(op.op));
  if (unsupported.length) {
    const tools = [...new Set(unsupported.map((op) => SERVER_ONLY_OPS[op.op] ?? op.op))].join(", ");
    return fail(deps, run, {
      name: "UnsupportedOperation",
      message: `${tools} is not supported by Quarry's local job executor`,
    });
  }
  const complete = ops.find((op) => op.op === OpCode.RunComplete);
  if (complete) return finish(deps, run, complete.data ?? null);
  const fnError = ops.find((op) => op.id === COMPLETE_ID && RAN.has(op.op));
  if (fnError) {
    const error = fnError.error ?? { name: "Error", message: "function failed" };
    return fnError.op === OpCode.StepFailed ? fail(deps, run, error) : retryCall(deps, run, error, retryAfterMs);
  }
  const ran = ops.find((op) => RAN.has(op.op));
  if (ran) return stepRan(deps, run, ran, retryAfterMs);
  const planned = ops.filter((op) => op.op === OpCode.StepPlanned);
  const sleeps = ops.filter((op) => op.op === OpCode.Sleep);
  if (planned.length === 1 && !sleeps.length) {
    [run.next, run.attempt] = [planned[0]!.id, 0];
    return true;
  }
  if (planned.length || sleeps.length) return fanOut(deps, run, planned, sleeps);
  return retryCall(deps, run, {
    name: "Error",
    message: `no runnable op in response: ${ops.map((o) => o.op).join(", ") || "[]"}`,
  });
};

/** One step of the state machine; false when this claim on the run is over. */
const advance = async (deps: DriverDeps, run: RunState): Promise<boolean> => {
  if (deps.signal.aborted) return stopDriving(deps, run);
  if (run.next.startsWith(SLEEP_PREFIX)) return wakeSleeps(deps, run);
  const outcome = await call(deps, run, run.next, run.attempt);
  // On a graceful stop, an answer that made it back is still recorded: one step less to redo.
  if (deps.signal.aborted && (outcome.kind === "unavailable" || deps.abandoned())) return stopDriving(deps, run);
  if (outcome.kind !== "unavailable") deps.unavailableStreak.delete(run.id);
  switch (outcome.kind) {
    case "completed":
      return finish(deps, run, outcome.output);
    case "failed":
      return fail(deps, run, outcome.error);
    case "retry":
      return retryCall(deps, run, outcome.error, outcome.retryAfterMs);
    case "unavailable":
      return unavailable(deps, run, outcome.reason);
    case "ops":
      return handleOps(deps, run, outcome.ops, outcome.retryAfterMs);
  }
};

export const driveRun = async (deps: DriverDeps, run: RunState) => {
  try {
    while (await advance(deps, run));
  } catch (err) {
    run.log.error({ err }, "run driver error; handing the run back");
    if (!deps.abandoned()) await releaseRun(deps.db, { runId: run.id, me: deps.me }).catch(() => undefined);
  }
};
