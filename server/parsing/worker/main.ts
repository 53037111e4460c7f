/**
 * Entry point of a parse worker process (see ../worker-pool.ts), run from its bundle (server/startup/next-build.ts)
 * or with `node --import tsx`. It takes jobs over its IPC channel one at a time: parses a document (or draws one of
 * its pages) and sends the outcome back, elements in batches the app acknowledges one by one, so neither side holds a
 * large document's elements twice. After each job it reports whether the job left anything running (timers, handles,
 * CPU work); the app reuses it only when not.
 */
import { readFile } from "node:fs/promises";
import { AppError, errorMessage } from "@/server/errors";
// This process's composition root: the one file in parsing/ that makes clients, from the plain configs a job
// carries (the factories read no environment; eslint.config.mjs allows exactly these two).
import { createSpeechModel } from "@/server/providers/speech/client";
import { createVisionModel } from "@/server/providers/vision/client";
// Model calls are recorded by the app: this process only reports them (providers/usage.ts).
import { setModelCallSink } from "@/server/providers/usage";
import { setPageReporter } from "../page-watch";
import { setStepReporter } from "../parse-step";
import { setToolWatcher } from "../system-tools";
import { atRest, restingState, type RestingState } from "./at-rest";
import { batchSender } from "./batches";
import type { FromWorker, Outcome, ToWorker, WorkerJob } from "./protocol";

const send = (message: FromWorker) =>
  new Promise<void>((resolve, reject) => process.send!(message, undefined, {}, (e) => (e ? reject(e) : resolve())));

const acks = new Map<number, () => void>();
const acknowledged = (id: number) => new Promise<void>((resolve) => acks.set(id, resolve));

const run = async (id: number, job: WorkerJob): Promise<Outcome> => {
  if (job.task === "partition") {
    const { partitionDocumentStream } = await import("../partition");
    const { vision, speech } = job.providers;
    const batches = batchSender(async (elements, first) => {
      const ack = acknowledged(id);
      await send({ type: "elements", id, first, elements });
      await ack;
    });
    // Text formats read a large file a chunk at a time; it is never read into memory here as a whole.
    const source = job.bytes ? { bytes: job.bytes } : { path: job.inputPath };
    const meta = await partitionDocumentStream(
      { source, fileName: job.fileName, fileType: job.fileType, method: job.method, skipPages: job.skipPages },
      {
        providers: { vision: vision && createVisionModel(vision), speech: speech && createSpeechModel(speech) },
        timeBudgetMs: job.timeBudgetMs,
      },
      batches.add,
    );
    await batches.flush();
    return { ok: true, meta };
  }
  const bytes = job.bytes ?? new Uint8Array(await readFile(job.inputPath));
  if (job.task === "office-pdf") {
    const { convertOfficeToPdf } = await import("../office/convert");
    return { ok: true, pdf: await convertOfficeToPdf(bytes, job.fileType) };
  }
  const { renderPageImage } = await import("../page-image");
  const page = await renderPageImage({ bytes, fileType: job.fileType, pageNumber: job.pageNumber, width: job.width });
  return { ok: true, image: { png: new Uint8Array(page.png), width: page.width, height: page.height } };
};

let baseline: RestingState = restingState();

const handle = async (id: number, job: WorkerJob, scratchDir: string) => {
  // Tools the parsers run (LibreOffice, ffmpeg) write beside the job; the app removes the folder afterwards.
  process.env.TMPDIR = scratchDir;
  setPageReporter((page) => void send({ type: "page", id, page }).catch(() => undefined));
  setStepReporter((step) => void send({ type: "step", id, step }).catch(() => undefined));
  setModelCallSink((call) => void send({ type: "usage", id, call }).catch(() => undefined));
  let outcome: Outcome;
  try {
    outcome = await run(id, job);
  } catch (error) {
    outcome =
      error instanceof AppError
        ? { ok: false, code: error.code, message: error.message, retryable: error.retryable }
        : { ok: false, code: "UNPROCESSABLE", message: `The parser failed: ${errorMessage(error)}` };
  }
  setPageReporter(null);
  setStepReporter(null);
  await send({ type: "done", id, ...outcome });
  const clean = outcome.ok && (await atRest(baseline));
  // Threads found idle after a job (the runtime's, started lazily by a first file read or compilation; a library's
  // pool) are not watched again: the next jobs would otherwise each wait out the window for them.
  if (clean) baseline = { ...baseline, threads: restingState().threads };
  await send({ type: "idle", id, clean, rssMb: Math.round(process.memoryUsage.rss() / 1024 / 1024) });
};

const main = async () => {
  // Text formats (most uploads) are ready at once; other parsers load on first use.
  await import("../partition");
  await import("../text");
  process.on("message", (message: ToWorker) => {
    if (message.type === "ack") acks.get(message.id)?.();
    else if (message.type === "job") void handle(message.id, message.job, message.scratchDir);
  });
  // The app is gone (even by kill -9): nothing is left to parse for.
  process.on("disconnect", () => process.exit(0));
  // The app kills the programs a job started (LibreOffice, ffmpeg) with this process when it stops it.
  setToolWatcher((pid, running) => void send({ type: "tool", pid, running }).catch(() => undefined));
  baseline = restingState();
  await send({ type: "ready" });
};

main().catch((error: unknown) => {
  process.stderr.write(`${errorMessage(error)}\n`);
  process.exit(1);
});
