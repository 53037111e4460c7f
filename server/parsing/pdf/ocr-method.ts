import { describeFailure } from "../failure";
import { AppError } from "@/server/errors";
import { DEFAULT_PARSE_TIME_BUDGET_MS } from "../time-budget";
import { analyzePage, pagesToElements, type AnalyzedPage } from "../ocr/page";
import { sharperSource } from "../ocr/reocr";
import { bodyStats } from "../ocr/structure";
import type { PartitionResult } from "../types";
import { openPdf } from "./load";
import { renderPage } from "./render";

/**
 * OCR of PDF pages, for the pages balanced, accurate and auto cannot read from a text layer (text-first.ts decides
 * which: scans, broken font encodings, text drawn as curves). Balanced reads at 200 dpi; accurate at 300 dpi and
 * reads unsure lines and table cells again from a 400 dpi render; both recover table structure. Pages are rendered and
 * read one at a time, so memory does not grow with the page count. Boxes are in PDF points, like the fast parser's.
 */

export const MAX_OCR_PAGES = 500;
const PAGE_TIMEOUT_MS = 180_000;
/** Second readings (accurate) stop this long after a page's first reading started. */
const REOCR_BUDGET_MS = 60_000;
const DPI = { balanced: 200, accurate: 300 } as const;
const REOCR_DPI = 400;
/** Past this many, pages OCR could not read are summarised in one warning. */
const MAX_PAGE_WARNINGS = 20;

export type PdfOcrMethod = keyof typeof DPI;

type OpenedPdf = Awaited<ReturnType<typeof openPdf>>;
type Analysed = { page: AnalyzedPage; scale: number; size: { width: number; height: number } };

/** The 1-based pages to read, in order, at most MAX_OCR_PAGES (a warning says when more were asked for). */
const pagesToRead = (only: readonly number[] | undefined, total: number, warnings: string[]) => {
  const wanted = only
    ? [...new Set(only)].filter((n) => Number.isInteger(n) && n >= 1 && n <= total).sort((a, b) => a - b)
    : Array.from({ length: total }, (_, i) => i + 1);
  if (wanted.length <= MAX_OCR_PAGES) return wanted;
  warnings.push(`Only the first ${MAX_OCR_PAGES} of ${wanted.length} pages were read with OCR`);
  return wanted.slice(0, MAX_OCR_PAGES);
};

/** One page rendered at the method's resolution and read, within what is left of the time budget. */
const readPage = async (
  doc: OpenedPdf,
  pageNumber: number,
  { method, started, timeBudgetMs }: { method: PdfOcrMethod; started: number; timeBudgetMs: number },
): Promise<Analysed> => {
  const rendered = await renderPage(doc, pageNumber, { dpi: DPI[method] });
  const page = await analyzePage({
    pageNumber,
    png: rendered.png,
    width: rendered.width,
    height: rendered.height,
    dpi: rendered.scale * 72,
    enlargeSmallText: false,
    // Both methods recover tables on scans (balanced by alignment and rules, without second readings).
    tables: true,
    reocr:
      method === "accurate"
        ? {
            source: async () => {
              const sharp = await renderPage(doc, pageNumber, { dpi: REOCR_DPI });
              return sharperSource(sharp.png, sharp.scale / rendered.scale);
            },
            upscale: 1,
            dpi: REOCR_DPI,
          }
        : null,
    keepEmptyPage: "inked",
    deadline: Math.min(Date.now() + REOCR_BUDGET_MS, started + timeBudgetMs),
    timeoutMs: Math.min(PAGE_TIMEOUT_MS, Math.max(10_000, started + timeBudgetMs - Date.now())),
  });
  return { page, scale: rendered.scale, size: { width: rendered.pageWidth, height: rendered.pageHeight } };
};

/** The elements of the pages read, with the page warnings (at most MAX_PAGE_WARNINGS of them) after the others. */
const toResult = (
  analysed: Analysed[],
  {
    method,
    total,
    warnings,
    pageWarnings,
  }: { method: PdfOcrMethod; total: number; warnings: string[]; pageWarnings: string[] },
): PartitionResult => {
  warnings.push(...pageWarnings.slice(0, MAX_PAGE_WARNINGS));
  if (pageWarnings.length > MAX_PAGE_WARNINGS) {
    warnings.push(`${pageWarnings.length - MAX_PAGE_WARNINGS} more page warnings were left out`);
  }
  // Body text size over the whole document, unless pages were rendered at different scales (huge pages are
  // capped), where pixel sizes do not compare.
  const scales = analysed.map((a) => a.scale);
  const uniform = scales.length > 0 && Math.max(...scales) / Math.min(...scales) < 1.05;
  const byPage = new Map(analysed.map((a) => [a.page, a]));
  const elements = pagesToElements(
    analysed.map((a) => a.page),
    {
      scale: (page) => byPage.get(page)?.scale ?? 1,
      layout: (page) => byPage.get(page)?.size ?? { width: page.width, height: page.height },
      method,
      stats: uniform ? bodyStats(analysed.flatMap((a) => a.page.units)) : null,
    },
  );
  const pageMethods: Record<number, string> = {};
  for (const { page } of analysed) pageMethods[page.pageNumber] = method;
  return { elements, totalPages: total, warnings, pageMethods };
};

export const partitionPdfOcr = async ({
  bytes,
  method,
  pages: only,
  timeBudgetMs = DEFAULT_PARSE_TIME_BUDGET_MS,
}: {
  bytes: Uint8Array;
  method: PdfOcrMethod;
  /** 1-based pages to read (auto's per-page routing); all pages when omitted. */
  pages?: readonly number[];
  /** Reading stops after this long, with the pages read so far (time-budget.ts). */
  timeBudgetMs?: number;
}): Promise<PartitionResult> => {
  const warnings: string[] = [];
  const pageWarnings: string[] = [];
  const analysed: Analysed[] = [];
  let firstError: unknown = null;

  const doc = await openPdf(bytes);
  const total = doc.pageCount;
  try {
    const wanted = pagesToRead(only, total, warnings);
    const started = Date.now();
    for (const [i, pageNumber] of wanted.entries()) {
      if (Date.now() - started > timeBudgetMs) {
        warnings.push(
          `Stopped before page ${pageNumber}: the time limit for OCR was reached (${i} of ${wanted.length} pages read)`,
        );
        break;
      }
      try {
        const read = await readPage(doc, pageNumber, { method, started, timeBudgetMs });
        analysed.push(read);
        if (read.page.blank) pageWarnings.push(`Page ${pageNumber} is blank`);
        else if (read.page.units.length === 0 && read.page.tables.length === 0) {
          pageWarnings.push(`OCR found no text on page ${pageNumber}; it is kept as an image`);
        }
      } catch (error) {
        firstError ??= error;
        pageWarnings.push(`Page ${pageNumber} could not be read with OCR (${describeFailure(error)})`);
      }
    }
  } finally {
    doc.close();
  }
  if (analysed.length === 0 && firstError) {
    if (firstError instanceof AppError) throw firstError;
    throw new AppError("UNPROCESSABLE", `The PDF could not be read with OCR: ${describeFailure(firstError)}`, {
      cause: firstError,
    });
  }
  return toResult(analysed, { method, total, warnings, pageWarnings });
};
