import type { ParsedElement, PartitionResult } from "../types";
import { scanPageGraphics } from "./figures";
import { parseTextLayer, type TextLayerParse } from "./index";
import { openPdf, type PdfDocument } from "./load";
import type { TextLayerVerdict } from "./soundness";

/**
 * Balanced and accurate read a PDF text layer first: a page whose text layer is sound is parsed from it (its words
 * and numbers are exact; OCR could only change them), and only the pages without usable text are rendered and read
 * with OCR (scans, broken font encodings, a page-sized picture with a stamp on it). Figures on text pages are Image
 * elements, as in fast.
 */

/** A page mostly covered by one picture, with this little text, is a scan with a stamp or a page number on it. */
const SCAN_IMAGE_COVERAGE = 0.7;
const SCAN_MAX_TEXT_CHARS = 100;

/** Share of the page the largest painted picture covers (0 when the page's drawing cannot be read). */
export const imageCoverage = async (doc: PdfDocument, pageNumber: number): Promise<number> => {
  try {
    const graphics = await scanPageGraphics(doc, pageNumber);
    const pageArea = graphics.width * graphics.height;
    let coverage = 0;
    for (const { box } of graphics.images) {
      const w = Math.min(box.right, graphics.width) - Math.max(box.left, 0);
      const h = Math.min(box.bottom, graphics.height) - Math.max(box.top, 0);
      if (w > 0 && h > 0) coverage = Math.max(coverage, (w * h) / pageArea);
    }
    return coverage;
  } catch {
    return 0;
  }
};

/**
 * Pages whose text layer cannot be used: no text or garbled text (soundness.ts), or little text on a page-sized
 * picture. Only the few pages with little text have their drawing read, so text pages cost nothing extra.
 */
export const pagesNeedingOcr = async (
  bytes: Uint8Array,
  verdicts: ReadonlyMap<number, TextLayerVerdict>,
): Promise<number[]> => {
  const needing: number[] = [];
  const unsure: number[] = [];
  for (const [n, verdict] of verdicts) {
    if (!verdict.sound) needing.push(n);
    else if (verdict.chars < SCAN_MAX_TEXT_CHARS) unsure.push(n);
  }
  if (unsure.length > 0) {
    const doc = await openPdf(bytes);
    try {
      for (const n of unsure) if ((await imageCoverage(doc, n)) >= SCAN_IMAGE_COVERAGE) needing.push(n);
    } finally {
      doc.close();
    }
  }
  return needing.sort((a, b) => a - b);
};

const withSource = (elements: ParsedElement[], source: "text_layer" | "ocr") =>
  elements.map((e) => ({ ...e, metadata: { ...e.metadata, text_source: source } }));

/** The elements (figures included) the text-layer parse read on the given pages. */
export const elementsOfPages = (text: TextLayerParse, pages: readonly number[]): ParsedElement[] => {
  const wanted = new Set(pages);
  return text.elements.filter((e) => e.pageNumber !== null && wanted.has(e.pageNumber));
};

export const partitionPdfTextFirst = async ({
  bytes,
  method,
  timeBudgetMs,
}: {
  bytes: Uint8Array;
  method: "balanced" | "accurate";
  /** For the OCR of the pages without a usable text layer (ocr-method.ts). */
  timeBudgetMs?: number;
}): Promise<PartitionResult> => {
  const text = await parseTextLayer({ bytes, warnTextless: false, figures: true });
  const ocrPages = await pagesNeedingOcr(bytes, text.verdicts);
  const ocrSet = new Set(ocrPages);
  const textPages = [...text.verdicts.keys()].filter((n) => !ocrSet.has(n));
  const fromText = withSource(elementsOfPages(text, textPages), "text_layer");
  const warnings = [...text.warnings];
  let fromOcr: ParsedElement[] = [];
  const pageMethods: Record<number, string> = {};
  for (const n of textPages) pageMethods[n] = method;
  if (ocrPages.length > 0) {
    // Loaded here: the OCR engine's modules are for scans, and most PDFs have none.
    const { partitionPdfOcr } = await import("./ocr-method");
    const ocr = await partitionPdfOcr({ bytes, method, pages: ocrPages, timeBudgetMs });
    fromOcr = withSource(ocr.elements, "ocr");
    warnings.push(...ocr.warnings);
    for (const [n, m] of Object.entries(ocr.pageMethods ?? {})) pageMethods[Number(n)] = m;
    const garbled = ocrPages.filter((n) => text.verdicts.get(n)?.reason === "garbled");
    if (garbled.length > 0) {
      warnings.push(
        `The text layer of ${garbled.length > 1 ? "pages" : "page"} ${garbled.join(", ")} looked garbled (a broken font encoding); read with OCR instead`,
      );
    }
  }
  // Pages in order; within a page, the reading order of whichever path read it.
  const byPage = new Map<number, ParsedElement[]>();
  for (const e of [...fromText, ...fromOcr]) {
    const n = e.pageNumber ?? 0;
    const list = byPage.get(n);
    if (list) list.push(e);
    else byPage.set(n, [e]);
  }
  const elements = [...byPage.keys()].sort((a, b) => a - b).flatMap((n) => byPage.get(n) ?? []);
  return { elements, totalPages: text.totalPages, warnings, pageMethods };
};
