import { AppError, errorMessage } from "@/server/errors";
import { visionModel, type ChatModel } from "@/server/llm/chat";
import { readingPage } from "../page-watch";
import type { ParsedElement, PartitionResult } from "../types";
import { MAX_AGENTIC_PAGES, pageList, readPdfWithVision } from "./agentic";
import { scanPageGraphics, type HorizontalLine } from "./figures";
import { MAX_PDF_PAGES, partitionPdf } from "./index";
import { openPdf } from "./load";
import { partitionPdfOcr } from "./ocr-method";

/**
 * The `auto` method for PDFs: each page goes to the method that suits it. A page with a text layer is read by
 * `fast`, unless it holds a table (`accurate` recovers table structure better); a page without one is a scan, read
 * by `agentic` when a vision model is configured, else by `balanced` (OCR). A page whose method fails is read by
 * the next one down (agentic → balanced → fast) with a warning.
 */

export type RoutedMethod = "fast" | "balanced" | "accurate" | "agentic";

export type PageRoute = {
  pageNumber: number;
  method: RoutedMethod;
  /** Why: for tests and logs. */
  reason: "text" | "ruled-table" | "text-table" | "scan";
};

export type PdfPlan = { totalPages: number; routes: PageRoute[]; warnings: string[]; fast: PartitionResult };

/** Fewer printed characters than this and the page has no text layer to speak of (a stamp, a page number). */
const MIN_TEXT_CHARS = 10;
/** A page mostly covered by one picture with this little text is a scan with a stamp on it. */
const SCAN_IMAGE_COVERAGE = 0.7;
const SCAN_MAX_TEXT_CHARS = 100;
/** Rules shorter than this are underlines and footnote separators. */
const MIN_TABLE_RULE = 40;
/** Reading every page's drawing operators is the slow part of planning; past this, pages are judged by text only. */
const PLAN_GRAPHICS_BUDGET_MS = 60_000;

/**
 * A ruled table: at least three horizontal rules at different heights spanning about the same x range (booktabs'
 * top/mid/bottom rules, or the row lines of a grid; a grid's cells give each column its own stack of rules).
 */
export const hasRuledTable = (lines: readonly HorizontalLine[]): boolean => {
  const stacks: { x0: number; x1: number; ys: number[] }[] = [];
  for (const line of lines) {
    const length = line.x1 - line.x0;
    if (length < MIN_TABLE_RULE) continue;
    const tolerance = Math.max(4, length * 0.03);
    let stack = stacks.find((s) => Math.abs(s.x0 - line.x0) <= tolerance && Math.abs(s.x1 - line.x1) <= tolerance);
    if (!stack) {
      stack = { x0: line.x0, x1: line.x1, ys: [] };
      stacks.push(stack);
    }
    // A rule drawn twice (fill and stroke, or a double rule) is one rule.
    if (!stack.ys.some((y) => Math.abs(y - line.y) < 1.5)) stack.ys.push(line.y);
    if (stack.ys.length >= 3) return true;
  }
  return false;
};

/**
 * Decides the method of every page. Reads the text layer (fast) of the whole document once: its Table elements
 * count as tables, and when every page goes to fast it is the result.
 */
export const planPdfPages = async (bytes: Uint8Array, { vision }: { vision: boolean }): Promise<PdfPlan> => {
  const fast = await partitionPdf({ bytes });
  const textTables = new Set(fast.elements.filter((e) => e.type === "Table").map((e) => e.pageNumber));
  const { pdfjs, doc } = await openPdf(bytes);
  const routes: PageRoute[] = [];
  const warnings: string[] = [];
  try {
    const total = doc.numPages;
    const limit = Math.min(total, MAX_PDF_PAGES);
    const started = Date.now();
    let graphicsChecked = 0;
    for (let pageNumber = 1; pageNumber <= limit; pageNumber++) {
      const page = await doc.getPage(pageNumber);
      try {
        const content = await readingPage(pageNumber, () => page.getTextContent());
        let chars = 0;
        for (const item of content.items) if ("str" in item) chars += item.str.replace(/\s+/g, "").length;
        let ruled = false;
        let coverage = 0;
        if (Date.now() - started <= PLAN_GRAPHICS_BUDGET_MS) {
          try {
            const graphics = await readingPage(pageNumber, () => scanPageGraphics(pdfjs, page));
            graphicsChecked = pageNumber;
            ruled = hasRuledTable(graphics.horizontalLines);
            const pageArea = graphics.width * graphics.height;
            for (const { box } of graphics.images) {
              const w = Math.min(box.right, graphics.width) - Math.max(box.left, 0);
              const h = Math.min(box.bottom, graphics.height) - Math.max(box.top, 0);
              if (w > 0 && h > 0) coverage = Math.max(coverage, (w * h) / pageArea);
            }
          } catch {
            // Drawing operators are a hint; without them the page is judged by its text.
          }
        }
        const scan = chars < MIN_TEXT_CHARS || (coverage >= SCAN_IMAGE_COVERAGE && chars < SCAN_MAX_TEXT_CHARS);
        routes.push(
          scan
            ? { pageNumber, method: vision ? "agentic" : "balanced", reason: "scan" }
            : ruled
              ? { pageNumber, method: "accurate", reason: "ruled-table" }
              : textTables.has(pageNumber)
                ? { pageNumber, method: "accurate", reason: "text-table" }
                : { pageNumber, method: "fast", reason: "text" },
        );
      } finally {
        page.cleanup();
      }
    }
    if (graphicsChecked < limit) {
      warnings.push(
        `Ruling lines were looked for on pages 1–${graphicsChecked} only (time limit); later pages were routed by their text`,
      );
    }
    if (total > limit) warnings.push(`Only the first ${limit} of ${total} pages were parsed`);
    // The vision model reads a bounded number of pages; the other scans are OCR'd.
    const agentic = routes.filter((r) => r.method === "agentic");
    if (agentic.length > MAX_AGENTIC_PAGES) {
      const rest = agentic.slice(MAX_AGENTIC_PAGES);
      for (const r of rest) r.method = "balanced";
      warnings.push(
        `Only ${MAX_AGENTIC_PAGES} scanned pages are read with the vision model; pages ${pageList(rest.map((r) => r.pageNumber))} were read with balanced`,
      );
    }
    return { totalPages: total, routes, warnings, fast };
  } finally {
    await doc.destroy();
  }
};

/** Where a page goes when its method fails. */
const FALLBACK: Record<RoutedMethod, RoutedMethod | null> = {
  agentic: "balanced",
  accurate: "balanced",
  balanced: "fast",
  fast: null,
};

/** Stages run in this order so pages falling back join the next stage's batch. */
const STAGES: RoutedMethod[] = ["agentic", "accurate", "balanced", "fast"];

const pagesWord = (pages: readonly number[]) => `${pages.length > 1 ? "Pages" : "Page"} ${pageList(pages)}`;

type StageOutcome = {
  elements: ParsedElement[];
  warnings: string[];
  read: number[];
  failed: { pages: number[]; error: unknown }[];
};

const runStage = async (
  method: RoutedMethod,
  pages: number[],
  { bytes, plan, model }: { bytes: Uint8Array; plan: PdfPlan; model: ChatModel | null },
): Promise<StageOutcome> => {
  if (method === "agentic") {
    if (!model) return { elements: [], warnings: [], read: [], failed: [{ pages, error: "no vision model" }] };
    const run = await readPdfWithVision(bytes, pages, model, { onFailure: "continue" });
    const failed = run.failed.map((f) => ({ pages: [f.pageNumber], error: f.error }));
    if (run.skipped.length > 0) {
      failed.push({ pages: run.skipped, error: "the time limit for the vision model was reached" });
    }
    return { elements: run.elements, warnings: run.warnings, read: run.read, failed };
  }
  try {
    const result =
      method === "fast"
        ? pages.length === plan.routes.length
          ? plan.fast // every page is a text page: the planning parse is the answer
          : await partitionPdf({ bytes, pages })
        : await partitionPdfOcr({ bytes, method, pages });
    // OCR skips a page it cannot read (with its own warning) and goes on; such a page falls back like a failed one.
    const read = result.pageMethods ? pages.filter((n) => result.pageMethods?.[n] !== undefined) : pages;
    const missed = pages.filter((n) => !read.includes(n));
    return {
      elements: result.elements,
      warnings: result.warnings,
      read,
      failed: missed.length > 0 ? [{ pages: missed, error: "it returned no result" }] : [],
    };
  } catch (error) {
    if (method === "fast") throw error;
    return { elements: [], warnings: [], read: [], failed: [{ pages, error }] };
  }
};

export const partitionPdfAuto = async ({ bytes }: { bytes: Uint8Array }): Promise<PartitionResult> => {
  const model = visionModel();
  const plan = await planPdfPages(bytes, { vision: model !== null });
  const queue = new Map<RoutedMethod, number[]>(STAGES.map((m) => [m, []]));
  for (const route of plan.routes) queue.get(route.method)?.push(route.pageNumber);

  const warnings = [...plan.warnings];
  const pageMethods: Record<number, string> = {};
  const byPage = new Map<number, ParsedElement[]>();
  for (const method of STAGES) {
    const pages = (queue.get(method) ?? []).sort((a, b) => a - b);
    if (pages.length === 0) continue;
    const outcome = await runStage(method, pages, { bytes, plan, model });
    warnings.push(...outcome.warnings);
    for (const n of outcome.read) pageMethods[n] = method;
    const read = new Set(outcome.read);
    for (const element of outcome.elements) {
      const n = element.pageNumber ?? 0;
      // A page that falls back is read again by the next method; nothing of the failed reading is kept.
      if (n !== 0 && !read.has(n)) continue;
      const list = byPage.get(n) ?? [];
      list.push({ ...element, metadata: { ...element.metadata, method: pageMethods[n] ?? method } });
      byPage.set(n, list);
    }
    for (const { pages: failedPages, error } of outcome.failed) {
      const next = FALLBACK[method];
      if (!next) {
        throw new AppError("UNPROCESSABLE", `${pagesWord(failedPages)} could not be read (${errorMessage(error)})`);
      }
      warnings.push(
        `${pagesWord(failedPages)}: method ${method} failed (${errorMessage(error)}); read with ${next} instead`,
      );
      queue.get(next)?.push(...failedPages);
    }
  }

  const elements = [...byPage.keys()]
    .sort((a, b) => (a === 0 ? 1 : b === 0 ? -1 : a - b))
    .flatMap((n) => byPage.get(n) ?? []);
  // The planning parse and a stage can both report the same document-wide fact (a page limit).
  return { elements, totalPages: plan.totalPages, warnings: [...new Set(warnings)], pageMethods };
};
