import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Worker as ThreadWorker } from "node:worker_threads";
import type Tesseract from "tesseract.js";
import { AppError, errorMessage } from "@/server/errors";
import type { OcrBlock, OcrLine, OcrPage, OcrParagraph, OcrWord, PixelBox } from "./types";

/**
 * Tesseract (tesseract.js, WebAssembly) in one worker thread per process. The worker is created on first use,
 * recognises one image at a time (calls queue up) and is ended after a minute without work, so an idle server
 * holds no OCR memory.
 *
 * Offline by construction: tesseract.js fetches language data from a CDN unless told where it is, and a failed
 * fetch inside its worker surfaces as an exception no caller can catch (it takes the process down). The data is
 * read from the installed @tesseract.js-data/eng package, and the file is checked before any worker exists.
 */

const LANG = "eng";
let idleMs = 60_000;
const INIT_TIMEOUT_MS = 60_000;
/** One image; pages that take longer are given up (the worker is replaced). */
export const DEFAULT_OCR_TIMEOUT_MS = 120_000;

type TesseractModule = typeof Tesseract;

/** Page segmentation: `auto` for pages, `line` for one cropped text line (re-reading at a higher resolution). */
export type OcrLayout = "auto" | "line" | "block";
const PSM: Record<OcrLayout, string> = { auto: "3", block: "6", line: "7" };

export type RecognizeOptions = {
  layout?: OcrLayout;
  /** Resolution of the image when known (rendered PDF pages); spares Tesseract a guess. */
  dpi?: number;
  timeoutMs?: number;
};

const unprocessable = (message: string, cause?: unknown) => new AppError("UNPROCESSABLE", message, { cause });

/** Where the installed English model lives: `<package>/4.0.0_best_int/eng.traineddata.gz`. */
export const resolveLangPath = (
  bases: readonly string[] = [import.meta.url, path.join(process.cwd(), "package.json")],
): string => {
  const candidates: string[] = [];
  for (const base of bases) {
    try {
      candidates.push(path.dirname(createRequire(base).resolve("@tesseract.js-data/eng/package.json")));
    } catch {
      // Try the next base; bundlers can move this module away from node_modules.
    }
  }
  for (const dir of candidates) {
    const langPath = path.join(dir, "4.0.0_best_int");
    if (existsSync(path.join(langPath, `${LANG}.traineddata.gz`))) return langPath;
  }
  throw unprocessable(
    "OCR is not available on this server: the English language data (npm package @tesseract.js-data/eng) is not installed",
  );
};

export type Engine = {
  worker: Tesseract.Worker;
  thread: ThreadWorker | null;
  dead: boolean;
  onDeath: Set<(e: Error) => void>;
};

let tesseractModule: Promise<TesseractModule> | null = null;
let engine: Promise<Engine> | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let queue: Promise<unknown> = Promise.resolve();
let pending = 0;

const loadTesseract = async (): Promise<TesseractModule> => {
  tesseractModule ??= import("tesseract.js").then(
    (m) => ((m as { default?: TesseractModule }).default ?? m) as TesseractModule,
  );
  return tesseractModule;
};

const withTimeout = <T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/**
 * A Tesseract worker reading `langPath`. Exported for tests: a directory without the model must end in an
 * UNPROCESSABLE error, not a hang or a crash.
 */
export const openWorker = async (langPath: string): Promise<Engine> => {
  const { createWorker, OEM } = await loadTesseract();
  let initFailed: (error: Error) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => {
    initFailed = reject;
  });
  const state: Engine = { worker: null as unknown as Tesseract.Worker, thread: null, dead: false, onDeath: new Set() };
  let ready = false;
  const created = createWorker(LANG, OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: "none",
    logger: () => undefined,
    // Without a handler tesseract.js rethrows every worker-side error from a message listener, out of reach of
    // any caller. Job errors also reject the job's own promise, so after start-up there is nothing left to do.
    errorHandler: (error: unknown) => {
      if (!ready) initFailed(new Error(String(error)));
    },
  });
  try {
    state.worker = await withTimeout(
      Promise.race([created, failure]),
      INIT_TIMEOUT_MS,
      () => new Error("the OCR engine did not start in time"),
    );
  } catch (error) {
    throw unprocessable(`The OCR engine could not start (${errorMessage(error)})`, error);
  }
  ready = true;
  // A thread that dies (out of memory, crash in the WebAssembly) must fail the running job, not the process.
  const thread = (state.worker as unknown as { worker?: ThreadWorker }).worker ?? null;
  state.thread = thread;
  const die = (error: Error) => {
    if (state.dead) return;
    state.dead = true;
    for (const notify of state.onDeath) notify(error);
  };
  thread?.on("error", (error) => die(error instanceof Error ? error : new Error(String(error))));
  thread?.on("exit", (code) => die(new Error(`the OCR worker stopped (exit code ${code})`)));
  return state;
};

const startEngine = (): Promise<Engine> => openWorker(resolveLangPath());

const getEngine = async (): Promise<Engine> => {
  if (engine) {
    const current = await engine.catch(() => null);
    if (current && !current.dead) return current;
  }
  engine = startEngine();
  engine.catch(() => {
    engine = null;
  });
  return engine;
};

const stopEngine = async () => {
  const current = engine;
  engine = null;
  if (!current) return;
  const state = await current.catch(() => null);
  if (!state || state.dead) return;
  state.dead = true;
  await state.worker.terminate().catch(() => undefined);
};

/**
 * Ends a worker in the middle of a call. tesseract.js's own `terminate` forgets its thread, and a call still on its
 * way (`recognize` after `setParameters`) then posts to `null` from a promise nobody holds: an unhandled rejection.
 * Ending the thread underneath keeps tesseract.js's handle, so that late message goes nowhere.
 */
const abandonEngine = async (state: Engine) => {
  // A dead engine is replaced by the next `getEngine`.
  if (state.dead) return;
  state.dead = true;
  if (state.thread) await state.thread.terminate().catch(() => undefined);
  else await state.worker.terminate().catch(() => undefined);
};

const scheduleIdleStop = () => {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (pending === 0) void stopEngine();
  }, idleMs);
  // An idle timer must not keep a CLI or test process alive.
  idleTimer.unref();
};

const box = (bbox: Tesseract.Bbox): PixelBox => ({ left: bbox.x0, top: bbox.y0, right: bbox.x1, bottom: bbox.y1 });

/** Tesseract's PolyBlockType for a block of vertical text (PT_VERTICAL_TEXT). */
const VERTICAL_TEXT = 7;

const cleanText = (text: string) => text.normalize("NFKC").replace(/\s+/g, " ").trim();

const toPage = (data: Tesseract.Page, width: number, height: number): OcrPage => {
  const blocks: OcrBlock[] = [];
  for (const b of data.blocks ?? []) {
    const paragraphs: OcrParagraph[] = [];
    for (const p of b.paragraphs ?? []) {
      const lines: OcrLine[] = [];
      for (const l of p.lines ?? []) {
        const words: OcrWord[] = (l.words ?? [])
          .map((w) => ({ ...box(w.bbox), text: cleanText(w.text), confidence: w.confidence }))
          .filter((w) => w.text.length > 0);
        if (words.length === 0) continue;
        lines.push({
          ...box(l.bbox),
          text: words.map((w) => w.text).join(" "),
          confidence: l.confidence,
          words,
          rowHeight: l.rowAttributes?.rowHeight > 0 ? l.rowAttributes.rowHeight : l.bbox.y1 - l.bbox.y0,
        });
      }
      if (lines.length === 0) continue;
      paragraphs.push({
        ...box(p.bbox),
        text: lines.map((l) => l.text).join("\n"),
        confidence: p.confidence,
        lines,
      });
    }
    if (paragraphs.length === 0) continue;
    blocks.push({
      ...box(b.bbox),
      text: paragraphs.map((p) => p.text).join("\n\n"),
      confidence: b.confidence,
      paragraphs,
      ...(Number(b.blocktype) === VERTICAL_TEXT ? { vertical: true } : {}),
    });
  }
  return {
    width,
    height,
    text: blocks.map((b) => b.text).join("\n\n"),
    confidence: data.confidence,
    blocks,
  };
};

const runJob = async (image: Buffer, size: { width: number; height: number }, options: RecognizeOptions) => {
  const state = await getEngine();
  const timeoutMs = options.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS;
  let onDeath: ((e: Error) => void) | undefined;
  const died = new Promise<never>((_, reject) => {
    onDeath = (e) => reject(e);
    state.onDeath.add(onDeath);
  });
  try {
    const work = (async () => {
      await state.worker.setParameters({
        tessedit_pageseg_mode: PSM[options.layout ?? "auto"] as Tesseract.PSM,
        user_defined_dpi: options.dpi ? String(Math.round(options.dpi)) : "0",
      });
      return state.worker.recognize(image, {}, { text: false, blocks: true });
    })();
    work.catch(() => undefined);
    const result = await withTimeout(Promise.race([work, died]), timeoutMs, () => {
      // The worker may be stuck in WebAssembly; the only way out is to end it. The next call starts a new one.
      void abandonEngine(state);
      return unprocessable(`OCR took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`);
    });
    return toPage(result.data, size.width, size.height);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unprocessable(`OCR failed: ${errorMessage(error).replace(/^Error:\s*/, "")}`, error);
  } finally {
    if (onDeath) state.onDeath.delete(onDeath);
  }
};

/**
 * Reads the text of one image (PNG, JPEG, BMP or TIFF bytes; callers pass PNG). `size` is the image's pixel size,
 * copied to the result. Calls are served one at a time in the order made.
 */
export const recognize = (
  image: Buffer,
  size: { width: number; height: number },
  options: RecognizeOptions = {},
): Promise<OcrPage> => {
  pending++;
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  const job = queue.then(() => runJob(image, size, options));
  queue = job.catch(() => undefined);
  return job.finally(() => {
    pending--;
    if (pending === 0) scheduleIdleStop();
  });
};

/** Ends the worker now (tests, shutdown). The next `recognize` starts a new one. */
export const shutdownOcr = async (): Promise<void> => {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  await queue;
  await stopEngine();
};

/** How long an idle worker lives (tests shorten it). */
export const setOcrIdleTimeout = (ms: number) => {
  idleMs = ms;
};

/** Whether a worker is alive (tests of the idle shutdown). */
export const isOcrRunning = async (): Promise<boolean> => {
  if (!engine) return false;
  const state = await engine.catch(() => null);
  return !!state && !state.dead;
};
