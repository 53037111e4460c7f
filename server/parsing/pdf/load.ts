import { readingPage } from "../page-watch";
import { openPdf, type PdfDocument } from "./pdfium/document";
import { readPageText } from "./pdfium/text";
import type { PageText } from "./types";

export { openPdf, type PdfDocument };

/**
 * The text layer of one page as runs with boxes in top-left page coordinates, under the per-page budget. Text
 * printed at an angle goes to `rotated`; the layout code reads horizontal text only.
 */
export const readPage = ({ doc, pageNumber }: { doc: PdfDocument; pageNumber: number }): Promise<PageText> =>
  readingPage(pageNumber, async () => readPageText(doc, pageNumber));
