import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { bundleOf } from "@/server/startup/bundle";
import type { FromWorker, ToWorker } from "./worker/protocol";

/** One parse worker process, as the pool (worker-pool.ts) and the job running on it (worker-job.ts) see it. */

export type Worker = {
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
export const rssMb = async (pid: number): Promise<number | null> => {
  try {
    const status = await readFile(/*turbopackIgnore: true*/ `/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
};

/** Settings that hold a secret: keys, passwords, tokens, and URLs that may carry a password. */
const SECRET_SETTING = /(KEY|SECRET|PASSWORD|TOKEN|PEPPER)$|^(DATABASE_URL|SMTP_URL)$|^AWS_/i;

/**
 * The environment a parse worker starts with: the app's, without its secrets. A worker reads untrusted documents;
 * the models it may call arrive as plain configs inside the job that needs them.
 */
export const parseWorkerEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_SETTING.test(name))) as NodeJS.ProcessEnv;

/**
 * Starts a worker. `onExit` runs when the process is gone (after the programs it started are killed): the pool
 * forgets it there and hands its place on.
 */
export const spawnWorker = (
  { kind, heapMb }: { kind: string; heapMb: number },
  onExit: (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => void,
): Worker => {
  const child = spawn(
    process.execPath,
    // The heap grows to 1.5x what is alive before a collection instead of up to 4x: a streamed parse's garbage
    // (rows, decoded chunks) otherwise piled up to hundreds of MB of resident memory between collections.
    [
      `--max-old-space-size=${heapMb}`,
      "--heap-growing-percent=50",
      // The young generation keeps V8's default size: at 8 MB (the app's) a PDF parse spent 30 % more CPU time,
      // its many short-lived objects promoted and collected again with the old generation.
      ...workerCommand(),
      kind,
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
    onExit(worker, code, signal);
  });
  // An idle pool must not keep a CLI or a test process alive.
  child.unref();
  (child.channel as { unref?: () => void } | null | undefined)?.unref?.();
  return worker;
};

/** Kills the worker (its exit then runs the pool's `onExit`) and what is left of the programs it started. */
export const retire = (worker: Worker) => {
  if (worker.retired) return;
  worker.retired = true;
  clearTimeout(worker.idleTimer);
  worker.child.kill("SIGKILL");
  killTools(worker);
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

export const send = (worker: Worker, message: ToWorker) => {
  try {
    worker.child.send(message);
  } catch (error) {
    logger.warn({ err: error }, "could not reach a parse worker");
  }
};
