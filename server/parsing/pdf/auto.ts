import { describeFailure } from "../failure";
import { AppError } from "@/server/errors";
import type { VisionModel } from "@/server/providers/vision/types";
import type { ParsedElement, PartitionResult } from "../types";
import type { AgenticOptions } from "./agentic";
import { parseTextLayer, type TextLayerParse } from "./index";
import { MAX_AGENTIC_PAGES, pageList } from "./page-list";
import { elementsOfPages } from "./text-first";

/**
 * The `auto` method for PDFs: each page goes to the method that suits it. A page with a sound text layer is read
 * from it, by `fast`, or by `accurate`'s table recovery (ruling lines and text positions, never OCR) when it holds
 * a table; a page without usable text is a scan, read by `agentic` when it is given a vision model, else by
 * `balanced` (OCR). A page whose method fails is read by the next one down (agentic → balanced → fast) with a
 * warning. Text pages cost what `fast` costs: only pages with tables, or with little text, have their drawing read.
 */

export type RoutedMethod = "fast" | "balanced" | "accurate" | "agentic";

export type PageRoute = {
  pageNumber: number;
  method: RoutedMethod;
  /** Why: for tests and logs. */
  reason: "text" | "ruled-table" | "text-table" | "scan";
};

export type PdfPlan = { totalPages: number; routes: PageRoute[]; warnings: string[]; fast: TextLayerParse };

/**
 * Decides the method of every page from one parse of the text layer: its verdicts say which pages need OCR, its
 * Table elements which pages hold tables.
 */
export const planPdfPages = async (bytes: Uint8Array, { vision }: { vision: boolean }): Promise<PdfPlan> => {
  // The scan check rides on the same open document and page drawings as the parse: a text page costs what fast costs.
  const fast = await parseTextLayer({ bytes, warnTextless: false, figures: true, findScans: true });
  const scans = new Set(fast.scans);
  const tables = new Map<number, string>();
  for (const e of fast.elements) {
    if (e.type === "Table" && e.pageNumber !== null) {
      const ruled = e.metadata?.table_source === "ruling-lines";
      if (ruled || !tables.has(e.pageNumber)) tables.set(e.pageNumber, ruled ? "ruled-table" : "text-table");
    }
  }
  const routes: PageRoute[] = [...fast.verdicts.keys()]
    .sort((a, b) => a - b)
    .map((pageNumber): PageRoute => {
      if (scans.has(pageNumber)) return { pageNumber, method: vision ? "agentic" : "balanced", reason: "scan" };
      const table = tables.get(pageNumber);
      if (table) return { pageNumber, method: "accurate", reason: table as PageRoute["reason"] };
      return { pageNumber, method: "fast", reason: "text" };
    });
  const warnings = [...fast.warnings];
  // The vision model reads a bounded number of pages; the other scans are OCR'd.
  const agentic = routes.filter((r) => r.method === "agentic");
  if (agentic.length > MAX_AGENTIC_PAGES) {
    const rest = agentic.slice(MAX_AGENTIC_PAGES);
    for (const r of rest) r.method = "balanced";
    warnings.push(
      `Only ${MAX_AGENTIC_PAGES} scanned pages are read with the vision model; pages ${pageList(rest.map((r) => r.pageNumber))} were read with balanced`,
    );
  }
  return { totalPages: fast.totalPages ?? 0, routes, warnings, fast };
};

/** Where a page goes when its method fails. */
const FALLBACK: Record<RoutedMethod, RoutedMethod | null> = {
  agentic: "balanced",
  accurate: "fast",
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
  {
    bytes,
    plan,
    model,
    timeBudgetMs,
  }: { bytes: Uint8Array; plan: PdfPlan; model: VisionModel | null; timeBudgetMs?: number },
): Promise<StageOutcome> => {
  if (method === "agentic") {
    if (!model) return { elements: [], warnings: [], read: [], failed: [{ pages, error: "no vision model" }] };
    // Loaded here: the vision path brings the canvas module, and most PDFs have no scan.
    const { readPdfWithVision } = await import("./agentic");
    const run = await readPdfWithVision(bytes, pages, model, { onFailure: "continue", timeBudgetMs });
    const failed = run.failed.map((f) => ({ pages: [f.pageNumber], error: f.error }));
    if (run.skipped.length > 0) {
      failed.push({ pages: run.skipped, error: "the time limit for the vision model was reached" });
    }
    return { elements: run.elements, warnings: run.warnings, read: run.read, failed };
  }
  if (method === "fast" || method === "accurate") {
    // Text pages: the planning parse read them already (accurate's table recovery and the figures included).
    return { elements: elementsOfPages(plan.fast, pages), warnings: [], read: pages, failed: [] };
  }
  try {
    // Loaded here: the OCR engine's modules (sharp among them) are for scans, and most PDFs have none.
    const { partitionPdfOcr } = await import("./ocr-method");
    const result = await partitionPdfOcr({ bytes, method, pages, timeBudgetMs });
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
    return { elements: [], warnings: [], read: [], failed: [{ pages, error }] };
  }
};

/** `vision`: the model scans go to (none: they are OCR'd). */
export const partitionPdfAuto = async ({
  bytes,
  vision,
  timeBudgetMs,
}: { bytes: Uint8Array } & AgenticOptions): Promise<PartitionResult> => {
  const model = vision ?? null;
  const plan = await planPdfPages(bytes, { vision: model !== null });
  const queue = new Map<RoutedMethod, number[]>(STAGES.map((m) => [m, []]));
  for (const route of plan.routes) queue.get(route.method)?.push(route.pageNumber);

  const warnings = [...plan.warnings];
  const pageMethods: Record<number, string> = {};
  const byPage = new Map<number, ParsedElement[]>();
  for (const method of STAGES) {
    const pages = (queue.get(method) ?? []).sort((a, b) => a - b);
    if (pages.length === 0) continue;
    const outcome = await runStage(method, pages, { bytes, plan, model, timeBudgetMs });
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
        throw new AppError("UNPROCESSABLE", `${pagesWord(failedPages)} could not be read (${describeFailure(error)})`);
      }
      warnings.push(
        `${pagesWord(failedPages)}: method ${method} failed (${describeFailure(error)}); read with ${next} instead`,
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
