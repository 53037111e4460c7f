import { PDFDocument, PDFName } from "pdf-lib";
import { AppError } from "@/server/errors";
import type { SkippedPage } from "../types";

/**
 * The PDF with the given pages emptied (nothing drawn, no annotations), and a warning for each: pages that ran past
 * the per-page time budget in an earlier attempt (page-watch.ts). The same bytes when there are none.
 */
export const emptySkippedPages = async (
  bytes: Uint8Array,
  skip: readonly SkippedPage[] = [],
): Promise<{ bytes: Uint8Array; warnings: string[] }> => {
  if (skip.length === 0) return { bytes, warnings: [] };
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch {
    const pages = skip.map((s) => s.page).join(", ");
    throw new AppError(
      "UNPROCESSABLE",
      `Page ${pages} could not be read in time, and the PDF could not be opened to skip it`,
    );
  }
  const pages = doc.getPages();
  const warnings: string[] = [];
  for (const { page, reason } of skip) {
    const node = pages[page - 1]?.node;
    if (!node) continue;
    node.set(PDFName.of("Contents"), doc.context.register(doc.context.stream("")));
    node.delete(PDFName.of("Annots"));
    warnings.push(`Page ${page} was skipped: ${reason}`);
  }
  return { bytes: await doc.save({ useObjectStreams: false }), warnings };
};
