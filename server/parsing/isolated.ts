import { spawn } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { AppError } from "@/server/errors";
import type { InternalMethod } from "./methods.schema";
import type { ParsedElement, PartitionResult } from "./types";
import type { PageImageResult, PartitionMeta, WorkerJob, WorkerOutcome } from "./worker/protocol";

/**
 * Parsing runs in a child process, one per document. Parsers are large third-party code fed hostile input: one
 * that loops, leaks or blows the heap must end its build as failed, not take the server (and every other build)
 * down. The child gets a heap cap, its resident memory is watched, and it is killed at the time limit.
 */

export type IsolationLimits = {
  timeoutMs: number;
  /** Resident memory of the worker (JS heap, native buffers, wasm) before it is killed. */
  maxRssMb: number;
};

export const DEFAULT_LIMITS: IsolationLimits = { timeoutMs: 10 * 60_000, maxRssMb: 3072 };

const RSS_POLL_MS = 250;

const workerScript = () => {
  const candidates = [
    path.join(process.cwd(), "server/parsing/worker/main.ts"),
    path.resolve(import.meta.dirname ?? ".", "worker/main.ts"),
  ];
  const found = candidates.find((file) => existsSync(/*turbopackIgnore: true*/ file));
  if (!found) throw new AppError("INTERNAL", "The parse worker script is missing from this installation");
  return found;
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

export type IsolatedInput = { bytes: Uint8Array; fileName: string; fileType: string; method: InternalMethod };

type JobFields = DistributiveOmit<WorkerJob, "inputPath" | "outputPath">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Runs one job in a fresh worker process and hands its output file to `read` (before the scratch folder goes); a
 * failed job throws the error a person should read.
 */
const inWorker = async <T>(
  bytes: Uint8Array,
  fields: JobFields,
  limits: IsolationLimits,
  read: (outputPath: string) => Promise<T>,
): Promise<T> => {
  const dir = await mkdtemp(path.join(tmpdir(), "quarry-parse-"));
  try {
    const job = {
      ...fields,
      inputPath: path.join(dir, "input"),
      outputPath: path.join(dir, "output"),
    } as WorkerJob;
    await writeFile(/*turbopackIgnore: true*/ job.inputPath, bytes);
    const jobPath = path.join(dir, "job.json");
    await writeFile(/*turbopackIgnore: true*/ jobPath, JSON.stringify(job));
    await runWorker(jobPath, dir, limits);
    return await read(job.outputPath);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const readOutcome = async <T>(file: string): Promise<T> => {
  const outcome = JSON.parse(await readFile(/*turbopackIgnore: true*/ file, "utf8")) as WorkerOutcome<T>;
  if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
  return outcome.result;
};

/** Elements handed to the caller at a time while a parse result is read. */
export const ELEMENT_BATCH = 200;

/**
 * Parses the document in a worker process and hands its elements to `onBatch` in batches of ELEMENT_BATCH, in
 * order, reading the worker's output line by line: a document of a million elements never sits in memory (or in one
 * JSON.parse) at once. Returns everything else of the result.
 */
export const partitionIsolatedInBatches = (
  { bytes, fileName, fileType, method }: IsolatedInput,
  limits: IsolationLimits,
  onBatch: (elements: ParsedElement[], firstPosition: number) => Promise<void>,
): Promise<PartitionMeta> =>
  inWorker(bytes, { task: "partition", fileName, fileType, method }, limits, async (file) => {
    const lines = createInterface({
      input: createReadStream(/*turbopackIgnore: true*/ file, "utf8"),
      crlfDelay: Infinity,
    });
    let meta: PartitionMeta | null = null;
    let batch: ParsedElement[] = [];
    let position = 0;
    for await (const line of lines) {
      if (meta === null) {
        const head = JSON.parse(line) as WorkerOutcome<never> | { ok: true; meta: PartitionMeta };
        if (!head.ok) throw new AppError(head.code, head.message);
        meta = (head as { meta: PartitionMeta }).meta;
        continue;
      }
      batch.push(JSON.parse(line) as ParsedElement);
      if (batch.length >= ELEMENT_BATCH) {
        await onBatch(batch, position);
        position += batch.length;
        batch = [];
      }
    }
    if (meta === null) throw new AppError("UNPROCESSABLE", "The parser wrote no result");
    if (batch.length > 0) await onBatch(batch, position);
    return meta;
  });

/** Parses the document in a worker process and returns its elements, or throws the error a person should read. */
export const partitionIsolated = async (
  input: IsolatedInput,
  limits: IsolationLimits = DEFAULT_LIMITS,
): Promise<PartitionResult> => {
  const elements: ParsedElement[] = [];
  const meta = await partitionIsolatedInBatches(input, limits, async (batch) => {
    elements.push(...batch);
  });
  return { totalPages: meta.totalPages, warnings: meta.warnings, pageMethods: meta.pageMethods, elements };
};

/** Page screenshots draw untrusted documents too: same isolation, tighter limits. */
const PAGE_IMAGE_LIMITS: IsolationLimits = { timeoutMs: 60_000, maxRssMb: 1536 };

/** One page as a PNG (`fileType` "pdf" or an image extension), drawn in a worker process. */
export const pageImageIsolated = async (input: {
  bytes: Uint8Array;
  fileType: string;
  pageNumber: number;
  width: number;
}): Promise<{ png: Buffer; width: number; height: number }> => {
  const { bytes, ...fields } = input;
  const result = await inWorker(
    bytes,
    { task: "page-image", ...fields },
    PAGE_IMAGE_LIMITS,
    readOutcome<PageImageResult>,
  );
  return { png: Buffer.from(result.pngBase64, "base64"), width: result.width, height: result.height };
};

const heapMb = (limits: IsolationLimits) => Math.max(256, Math.floor(limits.maxRssMb * 0.75));

const runWorker = (jobPath: string, cwd: string, limits: IsolationLimits) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${heapMb(limits)}`, "--import", "tsx", workerScript(), jobPath],
      // tsx and the `@/` alias resolve from the app's root; the worker's scratch files live in `cwd`.
      { cwd: process.cwd(), env: { ...process.env, QUARRY_PARSE_SCRATCH: cwd }, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    let stopped: string | null = null;
    const stop = (reason: string) => {
      stopped ??= reason;
      child.kill("SIGKILL");
    };
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(
      () => stop(`Parsing took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped`),
      limits.timeoutMs,
    );
    const watch = setInterval(async () => {
      if (!child.pid) return;
      const rss = await rssMb(child.pid);
      if (rss !== null && rss > limits.maxRssMb) {
        stop(`Parsing needed more than ${limits.maxRssMb} MB of memory and was stopped`);
      }
    }, RSS_POLL_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      clearInterval(watch);
      reject(new AppError("INTERNAL", `The parse worker could not start: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      if (stopped) return reject(new AppError("UNPROCESSABLE", stopped));
      if (code === 0) return resolve();
      if (/heap out of memory|Allocation failed/i.test(stderr)) {
        return reject(
          new AppError("UNPROCESSABLE", `Parsing needed more than ${heapMb(limits)} MB of memory and was stopped`),
        );
      }
      const last = stderr.trim().split("\n").slice(-2).join(" ").slice(0, 300);
      reject(
        new AppError(
          "UNPROCESSABLE",
          `The parser crashed (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ""}`,
        ),
      );
    });
  });
