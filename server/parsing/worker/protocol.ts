import type { AppErrorCode } from "@/server/errors";
import type { SpeechModelConfig } from "@/server/providers/speech/types";
import type { ModelCallReport } from "@/server/providers/usage-types";
import type { VisionModelConfig } from "@/server/providers/vision/types";
import type { InternalMethod } from "../methods.schema";
import type { ParsedElement, PartitionResult, SkippedPage } from "../types";

/**
 * Messages between the app and a parse worker process (../worker-pool.ts), over the child's IPC channel with
 * structured-clone serialization (Uint8Arrays travel as bytes).
 *
 * app → worker: `job` (one at a time), `ack` (the app stored the last batch of elements; send the next one).
 * worker → app: `ready` once booted; during a job `page` (a page is being read, or no page is: the app's per-page
 * budget), `usage` (a model call it made), `step` (what the parse is doing, named if it runs out of time: parse-step.ts), `tool` (a program it
 * started or that ended: the app kills what is left of it with the worker), `elements` (a batch, in order; the worker
 * waits for the ack); then `done` with the outcome; then `idle` once it checked that the job left nothing running
 * (only then does it get another job).
 */

/** The models a parse may call, as plain data: the worker makes them into clients again (main.ts). */
export type ProviderConfigs = { vision: VisionModelConfig | null; speech: SpeechModelConfig | null };

/** What a job reads: the document inline (small ones) or a file in the job's scratch folder. */
type JobInput = { bytes: Uint8Array; inputPath?: undefined } | { bytes?: undefined; inputPath: string };

export type WorkerJob = JobInput &
  (
    | {
        task: "partition";
        fileName: string;
        fileType: string;
        method: InternalMethod;
        /** PDF pages left out (with the reason) because reading them overran the per-page budget before. */
        skipPages?: SkippedPage[];
        providers: ProviderConfigs;
        /** When page-by-page reading stops with what it read (a fifth before the worker is killed). */
        timeBudgetMs: number;
      }
    | { task: "page-image"; fileType: string; pageNumber: number; width: number }
    /** An Office file as the PDF LibreOffice makes of it (page screenshots). */
    | { task: "office-pdf"; fileType: string }
  );

export type PageImageResult = { png: Uint8Array; width: number; height: number };

/** Everything of a partition result but its elements (which went ahead in batches). */
export type PartitionMeta = Omit<PartitionResult, "elements"> & { elementCount: number };

export type ToWorker = { type: "job"; id: number; job: WorkerJob; scratchDir: string } | { type: "ack"; id: number };

export type Outcome =
  | { ok: true; meta?: PartitionMeta; image?: PageImageResult; pdf?: Uint8Array }
  | { ok: false; code: AppErrorCode; message: string; retryable?: boolean };

export type FromWorker =
  | { type: "ready" }
  | { type: "page"; id: number; page: number | null }
  | { type: "step"; id: number; step: string | null }
  /** A call to a vision or speech model, for the app to record (this process has no database). */
  | { type: "usage"; id: number; call: ModelCallReport }
  /** `pid` leads its own process group (system-tools.ts runs every program so). */
  | { type: "tool"; pid: number; running: boolean }
  | { type: "elements"; id: number; first: number; elements: ParsedElement[] }
  | ({ type: "done"; id: number } & Outcome)
  | { type: "idle"; id: number; clean: boolean; rssMb: number };
