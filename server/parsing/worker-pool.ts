import { runOnWorker, type JobHandlers, type JobLimits, type JobSuccess } from "./worker-job";
import { retire, spawnWorker, type Worker } from "./worker-process";
import type { WorkerJob } from "./worker/protocol";

/**
 * Warm parse worker processes. Parsers are large third-party code fed hostile input, so they run in child processes
 * with a heap cap, a resident-memory watch, a time limit per job and a time limit per page; past any of them the
 * worker is killed and its job fails with the reason. Starting a process per document cost more than parsing a small
 * one, so workers are kept and reused, but only while that is safe:
 * - a worker is retired after any job that did not succeed, after `maxJobs` jobs, when its memory stayed high after
 *   a job, and when a job left anything running (the worker checks: timers, handles, CPU use at rest);
 * - a job that a reused worker could not finish (crash, memory) is the caller's to run again on a fresh worker
 *   (`WorkerFailure.reused`), so a document's outcome never depends on an earlier document.
 * Idle workers exit after `idleMs`; the pool starts them again on demand.
 */

export type PoolOptions = {
  /** What the workers do; the last argument of their command line, so they can be told apart in `ps`. */
  kind: string;
  /** Workers at most (read when a job arrives). */
  size: () => number;
  /** V8 heap cap of each worker, MB. */
  heapMb: number;
  maxJobs: number;
  idleMs: number;
  /** Retire a worker whose resident memory after a job is above this (MB). */
  recycleRssMb: number;
  /** How long a document waits for a busy worker before another worker takes it (default SHARE_AFTER_MS). */
  shareAfterMs?: number;
};

/**
 * A document waits up to this long for a busy worker before another worker takes it. On two cores, two parses at
 * once made each cost twice the CPU time (the app's own work needs the other core), and most documents parse in well
 * under a second; a long one still does not hold the others back for more than this.
 */
const SHARE_AFTER_MS = 1000;

type Pool = {
  options: PoolOptions;
  workers: Set<Worker>;
  /** Jobs waiting for a worker, first come first served. */
  waiting: ((worker: Worker) => void)[];
  shareTimer?: NodeJS.Timeout;
};

/** A new worker, counted in the pool until its process is gone. */
const startWorker = (pool: Pool): Worker => {
  const worker = spawnWorker(pool.options, (gone, code, signal) => {
    pool.workers.delete(gone);
    gone.retired = true;
    gone.onExit?.(code, signal);
    pump(pool);
  });
  pool.workers.add(worker);
  return worker;
};

const take = (pool: Pool, worker: Worker) => {
  clearTimeout(worker.idleTimer);
  worker.busy = true;
  worker.busySince = Date.now();
  pool.waiting.shift()!(worker);
};

/** A worker's job is over: it takes the next waiting job, or idles until `idleMs` retires it. */
const release = (pool: Pool, worker: Worker) => {
  worker.busy = false;
  worker.settling = false;
  worker.onMessage = undefined;
  worker.onExit = undefined;
  if (worker.retired) return pump(pool);
  if (pool.waiting.length > 0) return take(pool, worker);
  worker.idleTimer = setTimeout(() => retire(worker), pool.options.idleMs);
  worker.idleTimer.unref();
};

/**
 * Hands free capacity to the jobs waiting: an idle worker, or a new one while below the size. A worker about to be
 * free (settling) is waited for rather than another one started: starting a process costs far more than that wait.
 * Beside a parse that started less than SHARE_AFTER_MS ago, a job waits for it (until then).
 */
const pump = (pool: Pool) => {
  clearTimeout(pool.shareTimer);
  while (pool.waiting.length > 0) {
    const live = [...pool.workers].filter((w) => !w.retired);
    const running = live.filter((w) => w.busy && !w.settling);
    const shareAfter = pool.options.shareAfterMs ?? SHARE_AFTER_MS;
    const wait = running.length > 0 ? Math.max(...running.map((w) => w.busySince)) + shareAfter - Date.now() : 0;
    if (wait > 0) {
      pool.shareTimer = setTimeout(() => pump(pool), wait);
      pool.shareTimer.unref();
      return;
    }
    const idle = live.find((w) => !w.busy);
    const settling = live.some((w) => w.settling);
    const worker = idle ?? (!settling && live.length < pool.options.size() ? startWorker(pool) : null);
    if (!worker) return;
    take(pool, worker);
  }
};

/** The next free worker; with `fresh`, one that has run no job yet. */
const acquire = (pool: Pool, fresh: boolean) =>
  new Promise<Worker>((resolve) => {
    pool.waiting.push((worker) => {
      if (!fresh || worker.jobs === 0) return resolve(worker);
      // A fresh process was asked for: this one goes, a new one takes its place.
      retire(worker);
      const replacement = startWorker(pool);
      replacement.busy = true;
      replacement.busySince = Date.now();
      resolve(replacement);
    });
    pump(pool);
  });

export const createWorkerPool = (options: PoolOptions) => {
  const pool: Pool = { options, workers: new Set(), waiting: [] };
  const terms = {
    heapMb: options.heapMb,
    maxJobs: options.maxJobs,
    recycleRssMb: options.recycleRssMb,
    release: (worker: Worker) => release(pool, worker),
  };

  /** Runs one job on a worker; resolves with its outcome, or throws the error a person should read. */
  const run = async (
    job: WorkerJob,
    scratchDir: string,
    limits: JobLimits,
    handlers: JobHandlers = {},
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<JobSuccess> => {
    const worker = await acquire(pool, fresh);
    try {
      await worker.ready;
    } catch (error) {
      retire(worker);
      release(pool, worker);
      throw error;
    }
    return runOnWorker(worker, { job, scratchDir, limits, handlers, pool: terms });
  };

  return {
    run,
    /** Stops every worker (tests, shutdown). */
    close: () => {
      for (const worker of pool.workers) retire(worker);
    },
    stats: () => ({
      pids: [...pool.workers].filter((w) => !w.retired).map((w) => w.child.pid),
      busy: [...pool.workers].filter((w) => w.busy).length,
      waiting: pool.waiting.length,
    }),
  };
};

export type WorkerPool = ReturnType<typeof createWorkerPool>;
