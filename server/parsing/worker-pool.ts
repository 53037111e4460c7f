import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { bundleOf } from "@/server/runtime/bundle";
import type { ParsedElement } from "./types";
import type { FromWorker, Outcome, ToWorker, WorkerJob } from "./worker/protocol";

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
};

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
};

const RSS_POLL_MS = 250;
/**
 * A worker reports `idle` within milliseconds of its outcome (at-rest.ts watches for 30 ms); one that does not within
 * this long (its event loop held by work a parser left running) is replaced, or the pool would wait for it forever.
 */
const SETTLE_LIMIT_MS = 10_000;
/**
 * A document waits up to this long for a busy worker before another worker takes it. On two cores, two parses at
 * once made each cost twice the CPU time (the app's own work needs the other core), and most documents parse in well
 * under a second; a long one still does not hold the others back for more than this.
 */
const SHARE_AFTER_MS = 1000;

/**
 * How a worker starts: the bundle next to the production build when the app runs as `npm start` runs it (which
 * rebuilds both when a source changed), otherwise the TypeScript entry through tsx (tests, development).
 */
const workerCommand = (): string[] => {
  const bundle = bundleOf("server/parsing/worker/main.ts");
  if (bundle) return [bundle];
  const source = path.join(process.cwd(), "server/parsing/worker/main.ts");
  if (!existsSync(/*turbopackIgnore: true*/ source)) {
    throw new AppError("INTERNAL", "The parse worker script is missing from this installation");
  }
  return ["--import", "tsx", source];
};

/** Resident set size of a process in MB, from /proc (Linux); null where that is not available. */
const rssMb = async (pid: number): Promise<number | null> => {
  try {
    const status = await readFile(/*turbopackIgnore: true*/ `/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
};

type Worker = {
  child: ChildProcess;
  ready: Promise<void>;
  jobs: number;
  busy: boolean;
  /** When its current job was handed to it. */
  busySince: number;
  /** Its job is done; it is checking that nothing is left running (see worker/main.ts). */
  settling: boolean;
  retired: boolean;
  stderr: string;
  /** Process groups of the programs its jobs started (LibreOffice, ffmpeg) and that have not ended yet. */
  tools: Set<number>;
  idleTimer?: NodeJS.Timeout;
  /** Set while a job runs: where the worker's messages and its death go. */
  onMessage?: (message: FromWorker) => void;
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
};

let nextJobId = 1;

/** Settings that hold a secret: keys, passwords, tokens, and URLs that may carry a password. */
const SECRET_SETTING = /(KEY|SECRET|PASSWORD|TOKEN|PEPPER)$|^(DATABASE_URL|SMTP_URL)$|^AWS_/i;

/**
 * The environment a parse worker starts with: the app's, without its secrets. A worker reads untrusted documents;
 * the models it may call arrive as plain configs inside the job that needs them.
 */
export const parseWorkerEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_SETTING.test(name))) as NodeJS.ProcessEnv;

export const createWorkerPool = (options: PoolOptions) => {
  const workers = new Set<Worker>();
  const waiting: ((worker: Worker) => void)[] = [];

  const spawnWorker = (): Worker => {
    const child = spawn(
      process.execPath,
      // The heap grows to 1.5x what is alive before a collection instead of up to 4x: a streamed parse's garbage
      // (rows, decoded chunks) otherwise piled up to hundreds of MB of resident memory between collections.
      [
        `--max-old-space-size=${options.heapMb}`,
        "--heap-growing-percent=50",
        // The young generation keeps V8's default size: at 8 MB (the app's) a PDF parse spent 30 % more CPU time,
        // its many short-lived objects promoted and collected again with the old generation.
        ...workerCommand(),
        options.kind,
      ],
      // Packages (and, through tsx, the `@/` alias) resolve from the app's root.
      {
        cwd: process.cwd(),
        env: parseWorkerEnv(),
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        serialization: "advanced",
      },
    );
    const worker: Worker = {
      child,
      jobs: 0,
      busy: false,
      busySince: 0,
      settling: false,
      retired: false,
      stderr: "",
      tools: new Set(),
      ready: Promise.resolve(),
    };
    worker.ready = new Promise<void>((resolve, reject) => {
      child.once("message", (m: FromWorker) => (m.type === "ready" ? resolve() : reject(new Error("bad hello"))));
      child.once("exit", () => reject(new AppError("INTERNAL", `The parse worker could not start: ${worker.stderr}`)));
      child.once("error", (error) => reject(new AppError("INTERNAL", `The parse worker could not start: ${error}`)));
    });
    worker.ready.catch(() => undefined);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (worker.stderr.length < 20_000) worker.stderr += chunk.toString("utf8");
    });
    child.on("message", (m: FromWorker) => {
      if (m.type !== "tool") return worker.onMessage?.(m);
      if (m.running) worker.tools.add(m.pid);
      else worker.tools.delete(m.pid);
    });
    child.on("error", () => undefined);
    child.on("exit", (code, signal) => {
      killTools(worker);
      workers.delete(worker);
      worker.retired = true;
      worker.onExit?.(code, signal);
      pump();
    });
    // An idle pool must not keep a CLI or a test process alive.
    child.unref();
    (child.channel as { unref?: () => void } | null | undefined)?.unref?.();
    workers.add(worker);
    return worker;
  };

  const retire = (worker: Worker) => {
    if (worker.retired) return;
    worker.retired = true;
    clearTimeout(worker.idleTimer);
    worker.child.kill("SIGKILL");
    killTools(worker);
  };

  const take = (worker: Worker) => {
    clearTimeout(worker.idleTimer);
    worker.busy = true;
    worker.busySince = Date.now();
    waiting.shift()!(worker);
  };

  const release = (worker: Worker) => {
    worker.busy = false;
    worker.settling = false;
    worker.onMessage = undefined;
    worker.onExit = undefined;
    if (worker.retired) return pump();
    if (waiting.length > 0) return take(worker);
    worker.idleTimer = setTimeout(() => retire(worker), options.idleMs);
    worker.idleTimer.unref();
  };

  let shareTimer: NodeJS.Timeout | undefined;

  /**
   * Hands free capacity to the jobs waiting: an idle worker, or a new one while below the size. A worker about to be
   * free (settling) is waited for rather than another one started: starting a process costs far more than that wait.
   * Beside a parse that started less than SHARE_AFTER_MS ago, a job waits for it (until then).
   */
  const pump = () => {
    clearTimeout(shareTimer);
    while (waiting.length > 0) {
      const live = [...workers].filter((w) => !w.retired);
      const running = live.filter((w) => w.busy && !w.settling);
      const wait = running.length > 0 ? Math.max(...running.map((w) => w.busySince)) + SHARE_AFTER_MS - Date.now() : 0;
      if (wait > 0) {
        shareTimer = setTimeout(pump, wait);
        shareTimer.unref();
        return;
      }
      const idle = live.find((w) => !w.busy);
      const settling = live.some((w) => w.settling);
      const worker = idle ?? (!settling && live.length < options.size() ? spawnWorker() : null);
      if (!worker) return;
      take(worker);
    }
  };

  const acquire = (fresh: boolean) =>
    new Promise<Worker>((resolve) => {
      waiting.push((worker) => {
        if (!fresh || worker.jobs === 0) return resolve(worker);
        // A fresh process was asked for: this one goes, a new one takes its place.
        retire(worker);
        const replacement = spawnWorker();
        replacement.busy = true;
        replacement.busySince = Date.now();
        resolve(replacement);
      });
      pump();
    });

  /** Runs one job on a worker; resolves with its outcome, or throws the error a person should read. */
  const run = async (
    job: WorkerJob,
    scratchDir: string,
    limits: JobLimits,
    handlers: JobHandlers = {},
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<Extract<Outcome, { ok: true }>> => {
    const worker = await acquire(fresh);
    try {
      await worker.ready;
    } catch (error) {
      retire(worker);
      release(worker);
      throw error;
    }
    const reused = worker.jobs > 0;
    worker.jobs += 1;
    worker.stderr = "";
    const id = nextJobId++;
    return new Promise((resolve, reject) => {
      let stopped: { message: string; kind: WorkerFailure["kind"]; page?: number } | null = null;
      let outcome: Outcome | null = null;
      let pageTimer: NodeJS.Timeout | undefined;
      let settleTimer: NodeJS.Timeout | undefined;
      let chain = Promise.resolve();
      /** What the worker said it was doing last (parse-step.ts, page-watch.ts). */
      let step: string | null = null;
      let page: number | null = null;
      let settled = false;
      const stop = (message: string, kind: WorkerFailure["kind"], page?: number) => {
        // A memory poll that was under way when the job ended must not stop the worker's next job.
        if (settled) return;
        stopped ??= { message, kind, page };
        retire(worker);
      };
      const timer = setTimeout(() => stop(outOfTime(job, limits, page, step), "timeout"), limits.timeoutMs);
      const watch = setInterval(async () => {
        const rss = worker.child.pid ? await rssMb(worker.child.pid) : null;
        if (rss !== null && rss > limits.maxRssMb) {
          stop(`Parsing needed more than ${limits.maxRssMb} MB of memory and was stopped`, "memory");
        }
      }, RSS_POLL_MS);
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        clearTimeout(pageTimer);
        clearInterval(watch);
      };
      worker.onExit = (code, signal) => {
        settle();
        clearTimeout(settleTimer);
        release(worker);
        if (outcome?.ok) return resolve(outcome);
        if (outcome) return reject(new AppError(outcome.code, outcome.message, { retryable: outcome.retryable }));
        if (stopped) return reject(new WorkerFailure(stopped.message, stopped.kind, reused, stopped.page));
        if (/heap out of memory|Allocation failed/i.test(worker.stderr)) {
          const message = `Parsing needed more than ${options.heapMb} MB of memory and was stopped`;
          return reject(new WorkerFailure(message, "memory", reused));
        }
        const last = worker.stderr.trim().split("\n").slice(-2).join(" ").slice(0, 300);
        const message = `The parser crashed (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ""}`;
        reject(new WorkerFailure(message, "crash", reused));
      };
      worker.onMessage = (message) => {
        if (!("id" in message) || message.id !== id) return;
        switch (message.type) {
          case "step":
            step = message.step;
            return;
          case "page": {
            clearTimeout(pageTimer);
            const budget = limits.pageTimeoutMs ?? 0;
            const reading = message.page;
            page = reading;
            if (reading !== null && budget > 0) {
              pageTimer = setTimeout(
                () => stop(`Page ${reading} took longer than ${Math.round(budget / 1000)} s to read`, "page", reading),
                budget,
              );
            }
            return;
          }
          case "elements":
            // In order, one at a time; the worker waits for the ack before it sends the next batch.
            chain = chain.then(async () => {
              if (stopped || outcome) return;
              try {
                await handlers.onElements?.(message.elements, message.first);
                send(worker, { type: "ack", id });
              } catch (error) {
                outcome = { ok: false, code: "INTERNAL", message: String(error) };
                stop("The parse result could not be stored", "crash");
                reject(error);
              }
            });
            return;
          case "done":
            worker.settling = message.ok;
            if (message.ok) settleTimer = setTimeout(() => retire(worker), SETTLE_LIMIT_MS);
            // After every batch was handled: the result is complete only then.
            chain = chain.then(async () => {
              // Stopped while earlier batches were being stored (a limit hit, the worker killed): the batches after
              // the stop were dropped, so this result is incomplete; the worker's exit reports why it stopped.
              if (stopped) return;
              // A document parsed between two memory polls is held to the same limit: the outcome must not depend
              // on how fast the machine was.
              const rss = message.ok && worker.child.pid ? await rssMb(worker.child.pid) : null;
              if (rss !== null && rss > limits.maxRssMb) {
                return stop(`Parsing needed more than ${limits.maxRssMb} MB of memory and was stopped`, "memory");
              }
              outcome ??= message;
              settle();
              if (!message.ok) {
                retire(worker);
                return reject(new AppError(message.code, message.message, { retryable: message.retryable }));
              }
              resolve(message);
            });
            return;
          case "idle":
            // After the outcome was handled (it may still be waiting on a memory reading): until then the job's
            // end, and a stop, still go through the worker's exit.
            chain = chain.then(() => {
              clearTimeout(settleTimer);
              // Stopped: its exit says why (and releases it).
              if (stopped) return;
              worker.onExit = undefined;
              if (!message.clean || worker.jobs >= options.maxJobs || message.rssMb > options.recycleRssMb) {
                retire(worker);
              }
              release(worker);
            });
            return;
        }
      };
      send(worker, { type: "job", id, job, scratchDir });
    });
  };

  return {
    run,
    /** Stops every worker (tests, shutdown). */
    close: () => {
      for (const worker of workers) retire(worker);
    },
    stats: () => ({
      pids: [...workers].filter((w) => !w.retired).map((w) => w.child.pid),
      busy: [...workers].filter((w) => w.busy).length,
      waiting: waiting.length,
    }),
  };
};

/** Kills what is left of the programs a worker started (their process groups: soffice and soffice.bin). */
const killTools = (worker: Worker) => {
  for (const group of worker.tools) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
  worker.tools.clear();
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

const send = (worker: Worker, message: ToWorker) => {
  try {
    worker.child.send(message);
  } catch (error) {
    logger.warn({ err: error }, "could not reach a parse worker");
  }
};

export type WorkerPool = ReturnType<typeof createWorkerPool>;
