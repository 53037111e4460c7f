import type { Logger } from "@/server/logger";
import type { RegisteredFunction } from "./function-registry";
import { memoizeStep, type ClaimedRun, type JobsDb } from "./run-store";
import { callServe, OpCode, type MemoizedStep, type SerializedError, type StoredEvent } from "./inngest-sdk";
import type { Backoff } from "./timing";

/** A run being driven, what driving it needs, and the calls and writes every part of the driver shares. */

export type DriverDeps = {
  db: JobsDb;
  me: string;
  serveUrl: string;
  signingKey?: string;
  backoff: Backoff;
  /** Aborted by stop(): in-flight calls are cut and the run is handed back. */
  signal: AbortSignal;
  /** stop({ abandon: true }): write nothing more, exactly like a crash. */
  abandoned: () => boolean;
  /** Look for due runs again after this delay (a retry or sleep just ended its claim). */
  wakeIn: (ms: number) => void;
  /** The run failed for good. */
  onFailed: (run: RunState, error: SerializedError) => Promise<void>;
  /**
   * Consecutive calls per run that found no Inngest endpoint. Drives that backoff across claims; in memory only,
   * since it describes the endpoint right now, not the run.
   */
  unavailableStreak: Map<string, number>;
};

export type RunState = {
  id: string;
  fn: RegisteredFunction;
  event: StoredEvent;
  steps: Record<string, MemoizedStep>;
  stack: string[];
  /** "step", a hashed step id, or a sleep marker. */
  next: string;
  attempt: number;
  log: Logger;
};

/** Ops that report a step's outcome. */
export const RAN = new Set<string>([OpCode.StepRun, OpCode.StepError, OpCode.StepFailed]);
/** Endpoint-down retries are not the function's fault: they never fail the run, and stay frequent. */
export const UNAVAILABLE_MAX_MS = 5000;

export const errorText = (e: SerializedError | undefined) =>
  (typeof e?.message === "string" && e.message) || (typeof e?.name === "string" && e.name) || "Unknown error";

export const toRunState = (row: ClaimedRun, fn: RegisteredFunction, log: Logger): RunState => ({
  id: row.id,
  fn,
  event: row.event as unknown as StoredEvent,
  steps: (row.steps ?? {}) as Record<string, MemoizedStep>,
  stack: [...row.stack],
  next: row.nextStepId,
  attempt: row.attempt,
  log,
});

export const call = (deps: DriverDeps, run: RunState, stepId: string, attempt: number) =>
  callServe({
    serveUrl: deps.serveUrl,
    functionId: run.fn.id,
    stepId,
    runId: run.id,
    event: run.event,
    steps: run.steps,
    stack: run.stack,
    attempt,
    maxAttempts: run.fn.maxAttempts,
    signingKey: deps.signingKey,
    signal: deps.signal,
  });

export const remember = (run: RunState, id: string, value: MemoizedStep) => {
  run.steps[id] = value;
  if (!run.stack.includes(id)) run.stack.push(id);
};

export const memoize = async (
  deps: DriverDeps,
  run: RunState,
  id: string,
  value: MemoizedStep,
  advanceToStep: boolean,
) => {
  const next = advanceToStep ? { stepId: "step", attempt: 0 } : undefined;
  if (!(await memoizeStep(deps.db, { runId: run.id, me: deps.me, stepId: id, value, next }))) return false;
  remember(run, id, value);
  if (next) [run.next, run.attempt] = [next.stepId, next.attempt];
  run.log.debug({ stepId: id, type: value.type }, "step memoized");
  return true;
};

export const leaseLost = (run: RunState) => {
  run.log.warn("lease lost to another executor; leaving the run to it");
  return false;
};
