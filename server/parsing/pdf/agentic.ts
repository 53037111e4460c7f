import { withSureFurniture } from "../furniture";
import { describeFailure } from "../failure";
import { AppError } from "@/server/errors";
import type { VisionModel } from "@/server/providers/vision/types";
import type { ParsedElement, PartitionResult } from "../types";
import { readPageWithVision, VISION_PAGE_TIMEOUT_MS, type VisionPage } from "../vision/read-page";
import { openPdf } from "./load";
import { renderPage } from "./render";
import { DEFAULT_PARSE_TIME_BUDGET_MS } from "../time-budget";
import { MAX_AGENTIC_PAGES, pageList } from "./page-list";

export { MAX_AGENTIC_PAGES, pageList };

/** 150 dpi keeps small print legible; vision APIs downscale larger images anyway. */
const RENDER_DPI = 150;
/** Model calls in flight at once (rendering stays one page at a time). */
const CONCURRENCY = 3;

export const AGENTIC_NEEDS_VISION_MODEL =
  "Method 'agentic' needs a vision model: set VISION_MODEL (and VISION_BASE_URL / VISION_API_KEY) to an " +
  "OpenAI-compatible vision model";

export const requireVisionModel = (model: VisionModel | null | undefined): VisionModel => {
  if (!model) throw new AppError("BAD_REQUEST", AGENTIC_NEEDS_VISION_MODEL);
  return model;
};

export type VisionRun = {
  /** Elements of the pages read, in page order. */
  elements: ParsedElement[];
  read: number[];
  /** Pages that could not be read, with the reason (a model error, a render error). */
  failed: { pageNumber: number; error: unknown }[];
  /** Pages not tried because the time budget was spent. */
  skipped: number[];
};

export type VisionRunOptions = {
  /** "stop": the first failure ends the run (agentic asked for by name); "continue": read every page (auto). */
  onFailure: "stop" | "continue";
  timeBudgetMs?: number;
  pageTimeoutMs?: number;
};

/**
 * Reads pages with the vision model, a few model calls at a time; `load` produces a page image and is called one
 * page at a time (rendering is CPU- and memory-heavy, model calls are not).
 */
export const readPagesWithVision = async (
  model: VisionModel,
  pageNumbers: readonly number[],
  load: (pageNumber: number) => Promise<VisionPage>,
  { onFailure, timeBudgetMs = DEFAULT_PARSE_TIME_BUDGET_MS, pageTimeoutMs = VISION_PAGE_TIMEOUT_MS }: VisionRunOptions,
): Promise<VisionRun> => {
  const started = Date.now();
  const results = new Map<number, ParsedElement[]>();
  const failed: VisionRun["failed"] = [];
  const skipped: number[] = [];
  let loading: Promise<unknown> = Promise.resolve();
  const loadInTurn = (pageNumber: number): Promise<VisionPage> => {
    const next = loading.then(() => load(pageNumber));
    loading = next.catch(() => undefined);
    return next;
  };
  let cursor = 0;
  let stopped = false;
  const work = async () => {
    while (!stopped && cursor < pageNumbers.length) {
      const pageNumber = pageNumbers[cursor++] as number;
      if (Date.now() - started > timeBudgetMs) {
        skipped.push(pageNumber);
        continue;
      }
      try {
        const page = await loadInTurn(pageNumber);
        const { elements } = await readPageWithVision(model, page, { timeoutMs: pageTimeoutMs });
        results.set(pageNumber, elements);
      } catch (error) {
        failed.push({ pageNumber, error });
        if (onFailure === "stop") stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pageNumbers.length) }, work));
  const read = pageNumbers.filter((n) => results.has(n));
  failed.sort((a, b) => a.pageNumber - b.pageNumber);
  skipped.sort((a, b) => a - b);
  // The model's Header/Footer are its guess: only those repeated across the pages read stay typed so.
  return { elements: withSureFurniture(read.flatMap((n) => results.get(n) ?? [])), read, failed, skipped };
};

/** The pages asked for, in order, within the document and the page bound. */
const choosePages = (total: number, pages: readonly number[] | undefined, warnings: string[]): number[] => {
  const wanted = pages
    ? [...new Set(pages)].filter((n) => Number.isInteger(n) && n >= 1 && n <= total).sort((a, b) => a - b)
    : Array.from({ length: total }, (_, i) => i + 1);
  if (wanted.length > MAX_AGENTIC_PAGES) {
    warnings.push(
      `Only ${MAX_AGENTIC_PAGES} of ${wanted.length} pages were read with the vision model (pages ` +
        `${wanted[0]}–${wanted[MAX_AGENTIC_PAGES - 1]}); use method fast or balanced for longer documents`,
    );
  }
  return wanted.slice(0, MAX_AGENTIC_PAGES);
};

/** A failed page of a run that must not fail quietly: the first failure, as the error a person sees. */
const failure = (run: VisionRun): AppError | null => {
  const first = run.failed[0];
  if (!first) return null;
  if (first.error instanceof AppError) return first.error;
  return new AppError("UNPROCESSABLE", `Page ${first.pageNumber} could not be read (${describeFailure(first.error)})`, {
    cause: first.error,
  });
};

const timeLimitWarning = (skipped: readonly number[]) =>
  skipped.length > 0
    ? [
        `${skipped.length > 1 ? "Pages" : "Page"} ${pageList(skipped)} ${skipped.length > 1 ? "were" : "was"} not ` +
          "read: the time limit for the vision model was reached",
      ]
    : [];

const pageMethodsOf = (pages: readonly number[]) => Object.fromEntries(pages.map((n) => [n, "agentic"]));

/**
 * Opens the PDF, reads the pages with the vision model (options as for readPagesWithVision) and closes it. Pages
 * are rendered at 150 dpi; boxes come back in PDF points.
 */
export const readPdfWithVision = async (
  bytes: Uint8Array,
  pages: readonly number[] | undefined,
  model: VisionModel,
  options: VisionRunOptions,
): Promise<VisionRun & { totalPages: number; warnings: string[] }> => {
  const doc = await openPdf(bytes);
  try {
    const warnings: string[] = [];
    const wanted = choosePages(doc.pageCount, pages, warnings);
    const run = await readPagesWithVision(
      model,
      wanted,
      async (pageNumber) => {
        const r = await renderPage(doc, pageNumber, { dpi: RENDER_DPI });
        return {
          png: r.png,
          width: r.width,
          height: r.height,
          layout: { width: r.pageWidth, height: r.pageHeight },
          pageNumber,
        };
      },
      options,
    );
    return { ...run, totalPages: doc.pageCount, warnings };
  } finally {
    doc.close();
  }
};

/** What the agentic readers are given: the vision model (null when none is configured) and the time budget. */
export type AgenticOptions = { vision?: VisionModel | null; timeBudgetMs?: number };

/**
 * The `agentic` method for PDFs: every page rendered and read by the vision model it is given (none: refused,
 * naming VISION_MODEL); a page the model cannot read fails the parse (the method was asked for by name; `auto`
 * falls back instead).
 */
export const partitionPdfAgentic = async ({
  bytes,
  pages,
  vision,
  timeBudgetMs,
}: {
  bytes: Uint8Array;
  pages?: readonly number[];
} & AgenticOptions): Promise<PartitionResult> => {
  const model = requireVisionModel(vision);
  const run = await readPdfWithVision(bytes, pages, model, { onFailure: "stop", timeBudgetMs });
  const error = failure(run);
  if (error) throw error;
  return {
    elements: run.elements,
    totalPages: run.totalPages,
    warnings: [...run.warnings, ...timeLimitWarning(run.skipped)],
    pageMethods: pageMethodsOf(run.read),
  };
};

/**
 * The `agentic` method for image files (one entry per frame or page): boxes and page layout in pixels of the image.
 */
export const partitionImageAgentic = async (
  pages: { png: Buffer; width: number; height: number }[],
  { vision, timeBudgetMs }: AgenticOptions,
): Promise<PartitionResult> => {
  const model = requireVisionModel(vision);
  const warnings: string[] = [];
  const wanted = choosePages(pages.length, undefined, warnings);
  const run = await readPagesWithVision(
    model,
    wanted,
    async (pageNumber) => {
      const image = pages[pageNumber - 1] as { png: Buffer; width: number; height: number };
      return { ...image, layout: { width: image.width, height: image.height }, pageNumber };
    },
    { onFailure: "stop", timeBudgetMs },
  );
  const error = failure(run);
  if (error) throw error;
  return {
    elements: run.elements,
    totalPages: pages.length,
    warnings: [...warnings, ...timeLimitWarning(run.skipped)],
    pageMethods: pageMethodsOf(run.read),
  };
};
