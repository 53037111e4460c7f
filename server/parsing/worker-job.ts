import { AppError } from "@/server/errors";
import type { ParsedElement } from "./types";
import type { ModelCallReport } from "@/server/providers/usage-types";
import { retire, rssMb, send, type Worker } from "./worker-process";
import type { FromWorker, Outcome, WorkerJob } from "./worker/protocol";

/**
 * One job on one worker: its limits (time, memory, time per page) watched while it runs, its element batches handed
 * on in order, and its end, whichever way it comes (an outcome, a stop, the worker's death), turned into one result
 * or one error a person can read.
 */

export type JobLimits = {
  timeoutMs: number;
  /** Resident memory of the worker (JS heap, native buffers, wasm) before it is killed. */
  maxRssMb: number;
  /** How long one page may take (parsers mark pages, page-watch.ts); 0: no per-page limit. */
  pageTimeoutMs?: number;
  /** The whole time limit, when `timeoutMs` is what an earlier attempt left of it: the message names the whole. */
  budgetMs?: number;
  /** The setting the time limit comes from, named in the message ("QUARRY_PARSE_TIMEOUT_S"). */
  timeoutSetting?: string;
};

/** Why a worker was stopped or died, for the caller's retry decisions. */
export class WorkerFailure extends AppError {
  constructor(
    message: string,
    readonly kind: "timeout" | "memory" | "crash" | "page",
    /** The worker had run other jobs before this one. */
    readonly reused: boolean,
    /** The page that ran past its budget (kind "page"). */
    readonly page?: number,
  ) {
    super("UNPROCESSABLE", message);
  }
}

export type JobHandlers = {
  /** A batch of elements, in order; the next one is sent once this resolves. */
  onElements?: (elements: ParsedElement[], first: number) => Promise<void>;
  /** A model call the parse made, for usage. */
  onModelCall?: (report: ModelCallReport) => void;
};

/** What the pool tells a job about itself: the worker's limits, and how to hand the worker back. */
export type PoolTerms = {
  heapMb: number;
  maxJobs: number;
  recycleRssMb: number;
  release: (worker: Worker) => void;
};

export type JobSuccess = Extract<Outcome, { ok: true }>;

const RSS_POLL_MS = 250;
/**
 * A worker reports `idle` within milliseconds of its outcome (at-rest.ts watches for 30 ms); one that does not within
 * this long (its event loop held by work a parser left running) is replaced, or the pool would wait for it forever.
 */
const SETTLE_LIMIT_MS = 10_000;

let nextJobId = 1;

/** Everything one running job keeps; the handlers below read and change it. */
type Run = {
  id: number;
  worker: Worker;
  job: WorkerJob;
  limits: JobLimits;
  handlers: JobHandlers;
  reused: boolean;
  pool: PoolTerms;
  resolve: (success: JobSuccess) => void;
  reject: (error: unknown) => void;
  stopped: { message: string; kind: WorkerFailure["kind"]; page?: number } | null;
  outcome: Outcome | null;
  timer?: NodeJS.Timeout;
  watch?: NodeJS.Timeout;
  pageTimer?: NodeJS.Timeout;
  settleTimer?: NodeJS.Timeout;
  /** Element batches, the outcome and the idle report are handled one after another, in the order they came. */
  chain: Promise<void>;
  /** What the worker said it was doing last (parse-step.ts, page-watch.ts). */
  step: string | null;
  page: number | null;
  settled: boolean;
};

const stop = (run: Run, message: string, kind: WorkerFailure["kind"], page?: number) => {
  // A memory poll that was under way when the job ended must not stop the worker's next job.
  if (run.settled) return;
  run.stopped ??= { message, kind, page };
  retire(run.worker);
};

const overMemory = (run: Run) =>
  stop(run, `Parsing needed more than ${run.limits.maxRssMb} MB of memory and was stopped`, "memory");

/** Starts the job's time limit and its memory watch. */
const watchLimits = (run: Run) => {
  const { worker, job, limits } = run;
  run.timer = setTimeout(() => stop(run, outOfTime(job, limits, run.page, run.step), "timeout"), limits.timeoutMs);
  run.watch = setInterval(async () => {
    const rss = worker.child.pid ? await rssMb(worker.child.pid) : null;
    if (rss !== null && rss > limits.maxRssMb) overMemory(run);
  }, RSS_POLL_MS);
};

const settle = (run: Run) => {
  run.settled = true;
  clearTimeout(run.timer);
  clearTimeout(run.pageTimer);
  clearInterval(run.watch);
};

/** The worker is gone: the job ends with its outcome if it had one, else with why the worker stopped or died. */
const onExit = (run: Run, code: number | null, signal: NodeJS.Signals | null) => {
  const { worker, outcome, stopped, reused } = run;
  settle(run);
  clearTimeout(run.settleTimer);
  run.pool.release(worker);
  if (outcome?.ok) return run.resolve(outcome);
  if (outcome) return run.reject(new AppError(outcome.code, outcome.message, { retryable: outcome.retryable }));
  if (stopped) return run.reject(new WorkerFailure(stopped.message, stopped.kind, reused, stopped.page));
  if (/heap out of memory|Allocation failed/i.test(worker.stderr)) {
    const message = `Parsing needed more than ${run.pool.heapMb} MB of memory and was stopped`;
    return run.reject(new WorkerFailure(message, "memory", reused));
  }
  const last = worker.stderr.trim().split("\n").slice(-2).join(" ").slice(0, 300);
  const message = `The parser crashed (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ""}`;
  run.reject(new WorkerFailure(message, "crash", reused));
};

/** The worker started reading a page: that page gets its own time limit. */
const onPage = (run: Run, reading: number | null) => {
  clearTimeout(run.pageTimer);
  const budget = run.limits.pageTimeoutMs ?? 0;
  run.page = reading;
  if (reading !== null && budget > 0) {
    run.pageTimer = setTimeout(
      () => stop(run, `Page ${reading} took longer than ${Math.round(budget / 1000)} s to read`, "page", reading),
      budget,
    );
  }
};

const onElements = (run: Run, message: Extract<FromWorker, { type: "elements" }>) => {
  // In order, one at a time; the worker waits for the ack before it sends the next batch.
  run.chain = run.chain.then(async () => {
    if (run.stopped || run.outcome) return;
    try {
      await run.handlers.onElements?.(message.elements, message.first);
      send(run.worker, { type: "ack", id: run.id });
    } catch (error) {
      run.outcome = { ok: false, code: "INTERNAL", message: String(error) };
      stop(run, "The parse result could not be stored", "crash");
      run.reject(error);
    }
  });
};

const onDone = (run: Run, message: Extract<FromWorker, { type: "done" }>) => {
  const { worker } = run;
  worker.settling = message.ok;
  if (message.ok) run.settleTimer = setTimeout(() => retire(worker), SETTLE_LIMIT_MS);
  // After every batch was handled: the result is complete only then.
  run.chain = run.chain.then(async () => {
    // Stopped while earlier batches were being stored (a limit hit, the worker killed): the batches after the stop
    // were dropped, so this result is incomplete; the worker's exit reports why it stopped.
    if (run.stopped) return;
    // A document parsed between two memory polls is held to the same limit: the outcome must not depend on how fast
    // the machine was.
    const rss = message.ok && worker.child.pid ? await rssMb(worker.child.pid) : null;
    if (rss !== null && rss > run.limits.maxRssMb) return overMemory(run);
    run.outcome ??= message;
    settle(run);
    if (!message.ok) {
      retire(worker);
      return run.reject(new AppError(message.code, message.message, { retryable: message.retryable }));
    }
    run.resolve(message);
  });
};

const onIdle = (run: Run, message: Extract<FromWorker, { type: "idle" }>) => {
  const { worker, pool } = run;
  // After the outcome was handled (it may still be waiting on a memory reading): until then the job's end, and a
  // stop, still go through the worker's exit.
  run.chain = run.chain.then(() => {
    clearTimeout(run.settleTimer);
    // Stopped: its exit says why (and releases it).
    if (run.stopped) return;
    worker.onExit = undefined;
    if (!message.clean || worker.jobs >= pool.maxJobs || message.rssMb > pool.recycleRssMb) retire(worker);
    pool.release(worker);
  });
};

const onMessage = (run: Run, message: FromWorker) => {
  if (!("id" in message) || message.id !== run.id) return;
  switch (message.type) {
    case "step":
      run.step = message.step;
      return;
    case "page":
      return onPage(run, message.page);
    case "usage":
      return run.handlers.onModelCall?.(message.call);
    case "elements":
      return onElements(run, message);
    case "done":
      return onDone(run, message);
    case "idle":
      return onIdle(run, message);
  }
};

/** Runs one job on a worker that is ready; resolves with its outcome, or rejects with the error a person should read. */
export const runOnWorker = (
  worker: Worker,
  {
    job,
    scratchDir,
    limits,
    handlers,
    pool,
  }: {
    job: WorkerJob;
    scratchDir: string;
    limits: JobLimits;
    handlers: JobHandlers;
    pool: PoolTerms;
  },
): Promise<JobSuccess> => {
  const reused = worker.jobs > 0;
  worker.jobs += 1;
  worker.stderr = "";
  const id = nextJobId++;
  return new Promise((resolve, reject) => {
    const run: Run = {
      id,
      worker,
      job,
      limits,
      handlers,
      reused,
      pool,
      resolve,
      reject,
      stopped: null,
      outcome: null,
      chain: Promise.resolve(),
      step: null,
      page: null,
      settled: false,
    };
    watchLimits(run);
    worker.onExit = (code, signal) => onExit(run, code, signal);
    worker.onMessage = (message) => onMessage(run, message);
    send(worker, { type: "job", id, job, scratchDir });
  });
};

/**
 * The sentence a job stopped at its time limit fails with: the limit, the setting it comes from, and what the worker
 * was doing (the page it was reading, or the step it named), e.g. "Parsing ran out of time after 60 s
 * (QUARRY_PARSE_TIMEOUT_S) while converting with LibreOffice".
 */
const outOfTime = (job: WorkerJob, limits: JobLimits, page: number | null, step: string | null) => {
  const subject = { partition: "Parsing", "page-image": "Drawing the page", "office-pdf": "Making a PDF" }[job.task];
  const seconds = Math.round((limits.budgetMs ?? limits.timeoutMs) / 1000);
  const setting = limits.timeoutSetting ? ` (${limits.timeoutSetting})` : "";
  const doing = page !== null ? `reading page ${page}` : (step ?? `reading the .${job.fileType} file`);
  return `${subject} ran out of time after ${seconds} s${setting} while ${doing}`;
};
