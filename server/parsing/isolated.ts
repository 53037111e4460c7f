import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { InternalMethod } from "./methods.schema";
import { SOFFICE_TIMEOUT_MS } from "./office/convert";
import { parseTimeBudgetFor } from "./time-budget";
import type { ParsedElement, ParseProviders, PartitionResult, SkippedPage } from "./types";
import { WorkerFailure, type JobLimits } from "./worker-job";
import { createWorkerPool, type WorkerPool } from "./worker-pool";
import type { PartitionMeta, ProviderConfigs, WorkerJob } from "./worker/protocol";
import type { ModelCallReport } from "@/server/providers/usage-types";

/**
 * Parsing and page drawing run in worker processes (worker-pool.ts): a parser that loops, leaks or blows the heap
 * ends its build as failed instead of taking the server, and every other build, down. Limits, worker counts and
 * models come from the caller (the build's partition step, the screenshot service); nothing here reads settings.
 */

export type IsolationLimits = JobLimits & {
  /** Worker processes kept for this kind of work (default 2); more documents wait their turn. */
  workers?: number;
  /** How long a document waits for a busy worker before another one takes it (default a second; tests). */
  shareAfterMs?: number;
};

export const DEFAULT_LIMITS: IsolationLimits = { timeoutMs: 10 * 60_000, maxRssMb: 3072, pageTimeoutMs: 60_000 };

type Kind = "parse" | "page-image";

/** Workers per kind, as the latest caller asked (a pool reads it whenever a job arrives). */
const workerCounts: Record<Kind, number> = { parse: 2, "page-image": 2 };

/** Documents up to this size travel inside the job message; larger ones as a file in the job's scratch folder. */
const INLINE_BYTES = 1024 * 1024;
/** Pages a document may lose to the per-page budget before it fails (each one costs a new attempt). */
const MAX_SKIPPED_PAGES = 20;

const heapMb = (limits: IsolationLimits) => Math.max(256, Math.floor(limits.maxRssMb * 0.75));

const pools = new Map<string, WorkerPool>();

/** One pool per kind of work and heap cap (a process's heap cap is fixed when it starts). */
const poolFor = (kind: Kind, limits: IsolationLimits) => {
  if (limits.workers) workerCounts[kind] = limits.workers;
  const heap = heapMb(limits);
  const key = `${kind}:${heap}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = createWorkerPool({
      kind,
      size: () => workerCounts[kind],
      heapMb: heap,
      maxJobs: 200,
      idleMs: 60_000,
      // Memory a big document leaves behind (fragmented heap, native caches) is given back by a new process.
      recycleRssMb: Math.min(768, Math.max(256, Math.floor(limits.maxRssMb / 2))),
      shareAfterMs: limits.shareAfterMs,
    });
    pools.set(key, pool);
  }
  return pool;
};

/** Process ids of the warm parse workers (tests). */
export const parseWorkerPids = () =>
  [...pools.entries()].flatMap(([key, pool]) => (key.startsWith("parse:") ? pool.stats().pids : []));

/** Parse workers running a job now (tests). */
export const busyParseWorkers = () =>
  [...pools.entries()].reduce((n, [key, pool]) => n + (key.startsWith("parse:") ? pool.stats().busy : 0), 0);

/** Stops every parse worker (tests). */
export const closeWorkerPools = () => {
  for (const pool of pools.values()) pool.close();
  pools.clear();
};

/**
 * The document: its bytes, or (large files) a way to copy it into the job's folder, so that this process never holds
 * a large upload in memory.
 */
export type DocumentBytes =
  { bytes: Uint8Array; copyTo?: undefined } | { bytes?: undefined; copyTo: (file: string) => Promise<void> };

export type IsolatedInput = DocumentBytes & { fileName: string; fileType: string; method: InternalMethod };

export type IsolatedOptions = {
  /** Models the parse may call (none by default). They cross into the worker as their plain configs. */
  providers?: Partial<ParseProviders>;
  /** Each model call the parse made (the worker has no database): the caller records it under its own context. */
  onModelCall?: (report: ModelCallReport) => void;
};

const configsOf = (providers: Partial<ParseProviders> = {}): ProviderConfigs => ({
  vision: providers.vision?.config ?? null,
  speech: providers.speech?.config ?? null,
});

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type JobFields = DistributiveOmit<WorkerJob, "bytes" | "inputPath">;

/** Runs one job in the pool with a scratch folder of its own, removed afterwards whatever happened. */
const inWorker = async <T>(
  kind: Kind,
  input: DocumentBytes,
  fields: JobFields,
  limits: IsolationLimits,
  run: (pool: WorkerPool, job: WorkerJob, scratchDir: string) => Promise<T>,
): Promise<T> => {
  const dir = await mkdtemp(path.join(tmpdir(), "quarry-parse-"));
  try {
    let job: WorkerJob;
    if (input.bytes && input.bytes.byteLength <= INLINE_BYTES) {
      job = { ...fields, bytes: input.bytes } as WorkerJob;
    } else {
      const inputPath = path.join(dir, "input");
      if (input.bytes) await writeFile(/*turbopackIgnore: true*/ inputPath, input.bytes);
      else await input.copyTo(inputPath);
      job = { ...fields, inputPath } as WorkerJob;
    }
    return await run(poolFor(kind, limits), job, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/**
 * Parses the document in a worker and hands its elements to `onBatch` in order, in batches: a document of a million
 * elements never sits in this process at once. Returns everything else of the result.
 *
 * Two failures lead to a new attempt, after `onRestart` (which must drop what the batches stored): a page that ran
 * past the per-page budget (the document is parsed again without it, and a warning says so), and a crash or memory
 * stop in a worker that had parsed other documents before (run again in a fresh worker, so no document fails for
 * what an earlier one left behind). The time limit covers all attempts together.
 */
export const partitionIsolatedInBatches = async (
  { fileName, fileType, method, ...document }: IsolatedInput,
  limits: IsolationLimits,
  onBatch: (elements: ParsedElement[], firstPosition: number) => Promise<void>,
  {
    onRestart = async () => undefined,
    providers,
    onModelCall,
  }: IsolatedOptions & { onRestart?: () => Promise<void> } = {},
): Promise<PartitionMeta> => {
  const started = Date.now();
  const configs = configsOf(providers);
  const skipPages: SkippedPage[] = [];
  let fresh = false;
  for (;;) {
    const left = {
      ...limits,
      timeoutMs: Math.max(1, limits.timeoutMs - (Date.now() - started)),
      budgetMs: limits.timeoutMs,
    };
    try {
      const fields: JobFields = {
        task: "partition",
        fileName,
        fileType,
        method,
        skipPages: [...skipPages],
        providers: configs,
        // Page-by-page reading stops in time to hand back what it read before the worker is killed.
        timeBudgetMs: parseTimeBudgetFor(left.timeoutMs),
      };
      const outcome = await inWorker("parse", document as DocumentBytes, fields, left, (pool, job, dir) =>
        pool.run(job, dir, left, { onElements: onBatch, onModelCall }, { fresh }),
      );
      return outcome.meta!;
    } catch (error) {
      if (!(error instanceof WorkerFailure)) throw error;
      if (error.kind === "page" && error.page !== undefined && skipPages.length < MAX_SKIPPED_PAGES) {
        const seconds = Math.round((limits.pageTimeoutMs ?? 0) / 1000);
        skipPages.push({ page: error.page, reason: `reading it took longer than ${seconds} s` });
      } else if (error.reused && !fresh && (error.kind === "crash" || error.kind === "memory")) {
        fresh = true;
      } else {
        throw error;
      }
      await onRestart();
    }
  }
};

/** Parses the document in a worker process and returns its elements, or throws the error a person should read. */
export const partitionIsolated = async (
  input: IsolatedInput,
  limits: IsolationLimits = DEFAULT_LIMITS,
  options: IsolatedOptions = {},
): Promise<PartitionResult> => {
  let elements: ParsedElement[] = [];
  const meta = await partitionIsolatedInBatches(
    input,
    limits,
    async (batch) => {
      elements.push(...batch);
    },
    {
      ...options,
      onRestart: async () => {
        elements = [];
      },
    },
  );
  return { totalPages: meta.totalPages, warnings: meta.warnings, pageMethods: meta.pageMethods, elements };
};

/**
 * The PDF LibreOffice makes of an Office file (for page screenshots), in a worker process: its ZIP check and the
 * conversion are held to a time limit that kills LibreOffice with the worker, as a parse's are.
 */
export const officePdfIsolated = async (input: { bytes: Uint8Array; fileType: string }): Promise<Uint8Array> => {
  const { bytes, fileType } = input;
  // LibreOffice's own limit first (its message), the worker's a little later.
  const limits: IsolationLimits = { timeoutMs: SOFFICE_TIMEOUT_MS + 15_000, maxRssMb: 1536 };
  const outcome = await inWorker("page-image", { bytes }, { task: "office-pdf", fileType }, limits, (pool, job, dir) =>
    pool.run(job, dir, limits),
  );
  return outcome.pdf!;
};

/** Page screenshots draw untrusted documents too: same isolation, tighter limits. */
const PAGE_IMAGE_LIMITS: IsolationLimits = { timeoutMs: 60_000, maxRssMb: 1536 };

/**
 * One page as a PNG (`fileType` "pdf" or an image extension), drawn in a worker process; `workers`: how many such
 * processes may draw at once.
 */
export const pageImageIsolated = async (
  input: { bytes: Uint8Array; fileType: string; pageNumber: number; width: number },
  { workers }: { workers?: number } = {},
): Promise<{ png: Buffer; width: number; height: number }> => {
  const { bytes, ...fields } = input;
  const limits = { ...PAGE_IMAGE_LIMITS, workers };
  const run = (fresh: boolean) =>
    inWorker("page-image", { bytes }, { task: "page-image", ...fields }, limits, (pool, job, dir) =>
      pool.run(job, dir, limits, {}, { fresh }),
    );
  const outcome = await run(false).catch((error: unknown) => {
    if (error instanceof WorkerFailure && error.reused && error.kind !== "timeout") return run(true);
    throw error;
  });
  const image = outcome.image!;
  return { png: Buffer.from(image.png), width: image.width, height: image.height };
};
