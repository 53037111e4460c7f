import { AppError } from "@/server/errors";
import { readingPage } from "../page-watch";
import { openPdf, type PdfDocument } from "./load";
import type { Box } from "./types";

/** Renders stop growing past this many pixels a side, whatever the page size claims (a 200-inch page is legal). */
export const MAX_RENDER_SIDE = 6000;

export type RenderedPage = {
  pageNumber: number;
  png: Buffer;
  /** Pixel size of the image. */
  width: number;
  height: number;
  /** Page size in PDF points (what bounding boxes of text-layer elements use). */
  pageWidth: number;
  pageHeight: number;
  /** Pixels per point: divide pixel coordinates by it to get page coordinates. */
  scale: number;
};

export type RenderSize = { dpi: number } | { maxWidth: number };

const scaleFor = (size: RenderSize, pageWidth: number, pageHeight: number) => {
  const wanted = "dpi" in size ? size.dpi / 72 : size.maxWidth / pageWidth;
  const cap = MAX_RENDER_SIDE / Math.max(pageWidth, pageHeight);
  return Math.max(Math.min(wanted, cap), 0.01);
};

/** One page of an open document as a PNG, white background, rotation applied. */
export const renderPage = (doc: PdfDocument, pageNumber: number, size: RenderSize): Promise<RenderedPage> =>
  readingPage(pageNumber, async () => {
    const { width: pageWidth, height: pageHeight } = doc.withPage(pageNumber, (page) => page);
    const scale = scaleFor(size, pageWidth, pageHeight);
    const box = { left: 0, top: 0, right: pageWidth, bottom: pageHeight };
    const { png, width, height } = await renderRegion(doc, pageNumber, box, scale);
    return { pageNumber, png, width, height, pageWidth, pageHeight, scale };
  });

/**
 * A part of a page (a box in points, top-left origin, as displayed) as a PNG at `scale` pixels per point: a figure
 * is drawn at its own size instead of cut out of a whole page.
 */
export const renderRegion = async (
  doc: PdfDocument,
  pageNumber: number,
  box: Box,
  scale: number,
): Promise<{ png: Buffer; width: number; height: number }> => {
  // The epsilon keeps float noise (792 pt at 150 dpi = 1650.0000000000002) from adding a pixel row.
  const width = Math.max(1, Math.ceil((box.right - box.left) * scale - 1e-6));
  const height = Math.max(1, Math.ceil((box.bottom - box.top) * scale - 1e-6));
  const pixels = doc.withPage(pageNumber, (page) => drawPixels(doc, page.handle, box, scale, width, height));
  // Loaded here: most parses draw nothing (no figures, no scans).
  const { default: sharp } = await import("sharp");
  const png = await sharp(pixels, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .png()
    .toBuffer();
  return { png, width, height };
};

/** FPDF_ANNOT (annotation appearances, as a viewer shows them) | FPDF_REVERSE_BYTE_ORDER (RGBA, not BGRA). */
const RENDER_FLAGS = 0x01 | 0x10;
const WHITE = 0xffffffff;

const drawPixels = (doc: PdfDocument, page: number, box: Box, scale: number, width: number, height: number) => {
  const { api, heap } = doc.pdfium;
  const bitmap = api.FPDFBitmap_Create(width, height, 0);
  if (!bitmap) throw new AppError("UNPROCESSABLE", `A page image of ${width}x${height} pixels could not be made`);
  try {
    api.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, WHITE);
    // From the page as displayed (points) to the bitmap: scale, then move the box's corner to the origin.
    const { scratch } = doc;
    heap().f32.set([scale, 0, 0, scale, -box.left * scale, -box.top * scale, 0, 0, width, height], scratch >> 2);
    api.FPDF_RenderPageBitmapWithMatrix(bitmap, page, scratch, scratch + 24, RENDER_FLAGS);
    const stride = api.FPDFBitmap_GetStride(bitmap);
    const buffer = api.FPDFBitmap_GetBuffer(bitmap);
    const { u8 } = heap();
    const pixels = Buffer.alloc(width * height * 4);
    for (let row = 0; row < height; row++) {
      pixels.set(u8.subarray(buffer + row * stride, buffer + row * stride + width * 4), row * width * 4);
    }
    return pixels;
  } finally {
    api.FPDFBitmap_Destroy(bitmap);
  }
};

/** Opens the PDF, renders the pages asked for (all when omitted) in order, and closes it. */
export const renderPdfPages = async (
  bytes: Uint8Array,
  size: RenderSize,
  pages?: number[],
): Promise<{ totalPages: number; pages: RenderedPage[] }> => {
  const doc = await openPdf(bytes);
  try {
    const wanted = pages ?? Array.from({ length: doc.pageCount }, (_, i) => i + 1);
    const rendered: RenderedPage[] = [];
    for (const n of wanted) rendered.push(await renderPage(doc, n, size));
    return { totalPages: doc.pageCount, pages: rendered };
  } finally {
    doc.close();
  }
};

/** Page count without reading any page. */
export const countPdfPages = async (bytes: Uint8Array): Promise<number> => {
  const doc = await openPdf(bytes);
  try {
    return doc.pageCount;
  } finally {
    doc.close();
  }
};
