import type { AppErrorCode } from "@/server/errors";
import type { InternalMethod } from "../methods.schema";
import type { PartitionResult } from "../types";

/** What the parent hands the parse worker (as a JSON file; the document itself stays a file). */
export type WorkerJob = {
  inputPath: string;
  outputPath: string;
  fileName: string;
  fileType: string;
  method: InternalMethod;
};

export type WorkerOutcome =
  | { ok: true; result: PartitionResult }
  | { ok: false; code: AppErrorCode; message: string };
