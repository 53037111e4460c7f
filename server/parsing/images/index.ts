import { describeFailure } from "../failure";
import { AppError } from "@/server/errors";
import type { InternalMethod } from "../methods.schema";
import { DEFAULT_OCR_TIMEOUT_MS } from "../ocr/engine";
import { DEFAULT_PARSE_TIME_BUDGET_MS } from "../time-budget";
import { analyzePage, pagesToElements, type AnalyzedPage } from "../ocr/page";
import { sharperSource } from "../ocr/reocr";
import type { Parser, PartitionResult } from "../types";
import { decodeImage } from "./decode";

/** Extensions this parser reads (the dispatch table maps them here). */
export const IMAGE_FILE_TYPES = ["png", "jpg", "jpeg", "tif", "tiff", "bmp", "heic", "heif", "webp", "gif"] as const;

/** Second readings of unsure lines (accurate) stop this long after a page's first reading started. */
const REOCR_BUDGET_MS = 60_000;

/** Past this many, pages that could not be read are summarised in one warning. */
const MAX_PAGE_WARNINGS = 20;

type Mode = "balanced" | "accurate";

/**
 * An image has no text layer: every method reads it with OCR. Accurate adds tables and second readings; the
 * others (fast, auto, agentic and the legacy ones, when the caller sends them here) read like balanced and say so:
 * an image read by OCR never reports `fast`.
 */
const modeOf = (method: InternalMethod): Mode => {
  if (method === "hi_res_ft" || method === "advanced") return "accurate";
  return "balanced";
};

/**
 * Image files (PNG, JPEG, TIFF pages, BMP, HEIC, ...): each page is read with OCR and typed like a scanned page.
 * Boxes and page layouts are in pixels of the image; `page_number` is the frame number.
 */
export const partitionImage: Parser = async ({ bytes, fileType, method, timeBudgetMs }): Promise<PartitionResult> => {
  const mode = modeOf(method);
  const warnings: string[] = [];
  if (method === "basic") {
    warnings.push(
      "An image has no text layer, so the fast method read it with OCR (as balanced does); use accurate for tables",
    );
  }
  const decoded = await decodeImage(bytes, fileType);
  const total = decoded.totalPages;
  if (total > decoded.pages.length) {
    warnings.push(`Only the first ${decoded.pages.length} of ${total} pages of the image were read (size limits)`);
  }

  const started = Date.now();
  const budget = timeBudgetMs ?? DEFAULT_PARSE_TIME_BUDGET_MS;
  const pages: AnalyzedPage[] = [];
  let firstError: unknown = null;
  let failed = 0;
  const frames = decoded.pages as ((typeof decoded.pages)[number] | null)[];
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i];
    if (!frame) continue;
    if (Date.now() - started > budget) {
      warnings.push(`Stopped after page ${i} of ${frames.length}: the time limit for OCR was reached`);
      break;
    }
    try {
      pages.push(
        await analyzePage({
          pageNumber: i + 1,
          png: frame.png,
          width: frame.width,
          height: frame.height,
          enlargeSmallText: true,
          tables: mode === "accurate",
          reocr: mode === "accurate" ? { source: () => sharperSource(frame.png, 1), upscale: 2 } : null,
          keepEmptyPage: "always",
          deadline: Math.min(Date.now() + REOCR_BUDGET_MS, started + budget),
          timeoutMs: Math.min(DEFAULT_OCR_TIMEOUT_MS, Math.max(10_000, started + budget - Date.now())),
        }),
      );
    } catch (error) {
      firstError ??= error;
      if (++failed <= MAX_PAGE_WARNINGS) warnings.push(`Page ${i + 1} could not be read (${describeFailure(error)})`);
    }
    // Pages are read one at a time; a read page's pixels are not needed any more.
    frames[i] = null;
  }
  if (failed > MAX_PAGE_WARNINGS) warnings.push(`${failed - MAX_PAGE_WARNINGS} more pages could not be read`);
  if (pages.length === 0) {
    if (firstError instanceof AppError) throw firstError;
    throw new AppError("UNPROCESSABLE", `The image could not be read: ${describeFailure(firstError)}`, {
      cause: firstError,
    });
  }

  for (const page of pages) {
    if (page.units.length === 0 && page.tables.length === 0) {
      warnings.push(
        total > 1
          ? `OCR found no text on page ${page.pageNumber}; the page is kept as an image`
          : "OCR found no text in the image; it is kept as an image",
      );
    }
  }
  const elements = pagesToElements(pages, { scale: () => 1, method: mode, stats: null });
  const pageMethods: Record<number, string> = {};
  for (const page of pages) pageMethods[page.pageNumber] = mode;
  return { elements, totalPages: total, warnings, pageMethods };
};
