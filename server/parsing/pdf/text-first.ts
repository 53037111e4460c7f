import type { ParsedElement, PartitionResult } from "../types";
import { parseTextLayer, type TextLayerParse } from "./index";

/**
 * Balanced and accurate read a PDF text layer first: a page whose text layer is sound is parsed from it (its words
 * and numbers are exact; OCR could only change them), and only the pages without usable text are rendered and read
 * with OCR (scans, broken font encodings, a page-sized picture with a stamp on it: scan-pages.ts). Figures on text
 * pages are Image elements, as in fast.
 */

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
  const text = await parseTextLayer({ bytes, warnTextless: false, figures: true, findScans: true });
  const ocrPages = text.scans ?? [];
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
