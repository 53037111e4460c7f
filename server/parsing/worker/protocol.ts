import type { AppErrorCode } from "@/server/errors";
import type { InternalMethod } from "../methods.schema";
import type { PartitionResult } from "../types";

/** What the parent hands the worker (as a JSON file; the document itself stays a file). */
export type WorkerJob = { inputPath: string; outputPath: string } & (
  | { task: "partition"; fileName: string; fileType: string; method: InternalMethod }
  | { task: "page-image"; fileType: string; pageNumber: number; width: number }
);

export type PageImageResult = { pngBase64: string; width: number; height: number };

export type WorkerOutcome<T = PartitionResult | PageImageResult> =
  { ok: true; result: T } | { ok: false; code: AppErrorCode; message: string };

/**
 * A successful partition is written as JSON lines: first `{ok: true, meta}` (everything but the elements), then one
 * element per line. Errors, and page images, are one JSON document as above.
 */
export type PartitionMeta = Omit<PartitionResult, "elements"> & { elementCount: number };
