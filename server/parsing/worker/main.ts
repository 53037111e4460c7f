/**
 * Entry point of the parse worker process (see ../isolated.ts). Reads a job file, parses the document, writes the
 * result (or the error a person should see) to the output file and exits. Run with `node --import tsx`.
 */
import { readFile, writeFile } from "node:fs/promises";
import { AppError, errorMessage } from "@/server/errors";
import { partitionDocument } from "../partition";
import type { WorkerJob, WorkerOutcome } from "./protocol";

const main = async () => {
  const jobPath = process.argv[2];
  if (!jobPath) throw new Error("usage: main.ts <job.json>");
  const job = JSON.parse(await readFile(jobPath, "utf8")) as WorkerJob;
  let outcome: WorkerOutcome;
  try {
    const bytes = await readFile(job.inputPath);
    const result = await partitionDocument({
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      fileName: job.fileName,
      fileType: job.fileType,
      method: job.method,
    });
    outcome = { ok: true, result };
  } catch (error) {
    outcome =
      error instanceof AppError
        ? { ok: false, code: error.code, message: error.message }
        : { ok: false, code: "UNPROCESSABLE", message: `The parser failed: ${errorMessage(error)}` };
  }
  await writeFile(job.outputPath, JSON.stringify(outcome));
};

main().then(
  // Native libraries (OCR, canvas) may keep handles open; the result is written, so leave now.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${errorMessage(error)}\n`);
    process.exit(1);
  },
);
