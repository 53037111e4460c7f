import sharp from "sharp";
import { AppError } from "@/server/errors";
import { decodeImage } from "./images/decode";
import { openPdf } from "./pdf/load";
import { renderPage } from "./pdf/render";

/** One page of a document as a PNG, for screenshots (contract §5.11). Runs inside the parse worker. */

export type PageImage = { png: Buffer; width: number; height: number };

const outOfRange = (pageNumber: number) => new AppError("NOT_FOUND", `Page ${pageNumber} is out of range`);

/** One PDF page at `width` pixels wide (pages are vector drawings: small ones are drawn larger). */
const pdfPage = async (bytes: Uint8Array, pageNumber: number, width: number): Promise<PageImage> => {
  const doc = await openPdf(bytes);
  try {
    if (pageNumber > doc.pageCount) throw outOfRange(pageNumber);
    const page = await renderPage(doc, pageNumber, { maxWidth: width });
    return { png: page.png, width: page.width, height: page.height };
  } finally {
    doc.close();
  }
};

/**
 * One page of an image file: page 1, or a later frame of a multi-page TIFF. Scaled down to `width`, never up (a
 * small picture stays sharp at its own size).
 */
const imagePage = async (
  bytes: Uint8Array,
  fileType: string,
  pageNumber: number,
  width: number,
): Promise<PageImage> => {
  const { pages } = await decodeImage(bytes, fileType);
  const page = pages[pageNumber - 1];
  if (!page) throw outOfRange(pageNumber);
  if (page.width <= width) return page;
  const { data, info } = await sharp(page.png).resize({ width }).png().toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
};

/** `fileType` is "pdf" (Office files come as their PDF rendition) or an image extension. */
export const renderPageImage = ({
  bytes,
  fileType,
  pageNumber,
  width,
}: {
  bytes: Uint8Array;
  fileType: string;
  pageNumber: number;
  width: number;
}): Promise<PageImage> => {
  if (pageNumber < 1) throw outOfRange(pageNumber);
  return fileType === "pdf" ? pdfPage(bytes, pageNumber, width) : imagePage(bytes, fileType, pageNumber, width);
};
