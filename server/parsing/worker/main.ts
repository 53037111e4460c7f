/**
 * Entry point of the parse worker process (see ../isolated.ts). Reads a job file, parses the document (or draws one
 * of its pages), writes the result (or the error a person should see) to the output file and exits. Run with
 * `node --import tsx`.
 */
import { createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { AppError, errorMessage } from "@/server/errors";
import type { PartitionResult } from "../types";
import type { PageImageResult, WorkerJob, WorkerOutcome } from "./protocol";

/**
 * A partition result is written as lines (see protocol.ts): the parent reads it element by element, in batches,
 * instead of holding and parsing one JSON of hundreds of megabytes on the thread that serves HTTP.
 */
const writePartitionLines = async (file: string, result: PartitionResult) => {
  const out = createWriteStream(file);
  const { elements, ...meta } = result;
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  await write(JSON.stringify({ ok: true, meta: { ...meta, elementCount: elements.length } }));
  for (const element of elements) await write(JSON.stringify(element));
  out.end();
  await once(out, "finish");
};

const run = async (job: WorkerJob, bytes: Uint8Array): Promise<WorkerOutcome> => {
  if (job.task === "partition") {
    const { partitionDocument } = await import("../partition");
    const result = await partitionDocument({
      bytes,
      fileName: job.fileName,
      fileType: job.fileType,
      method: job.method,
    });
    return { ok: true, result };
  }
  const { renderPageImage } = await import("../page-image");
  const page = await renderPageImage({ bytes, fileType: job.fileType, pageNumber: job.pageNumber, width: job.width });
  const result: PageImageResult = { pngBase64: page.png.toString("base64"), width: page.width, height: page.height };
  return { ok: true, result };
};

const main = async () => {
  const jobPath = process.argv[2];
  if (!jobPath) throw new Error("usage: main.ts <job.json>");
  const job = JSON.parse(await readFile(jobPath, "utf8")) as WorkerJob;
  let outcome: WorkerOutcome;
  try {
    const bytes = await readFile(job.inputPath);
    outcome = await run(job, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    outcome =
      error instanceof AppError
        ? { ok: false, code: error.code, message: error.message }
        : { ok: false, code: "UNPROCESSABLE", message: `The parser failed: ${errorMessage(error)}` };
  }
  if (outcome.ok && job.task === "partition")
    await writePartitionLines(job.outputPath, outcome.result as PartitionResult);
  else await writeFile(job.outputPath, JSON.stringify(outcome));
};

main().then(
  // Native libraries (OCR, canvas) may keep handles open; the result is written, so leave now.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${errorMessage(error)}\n`);
    process.exit(1);
  },
);
