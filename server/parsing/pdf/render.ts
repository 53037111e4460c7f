import { createCanvas } from "@napi-rs/canvas";
import { readingPage } from "../page-watch";
import { openPdf } from "./load";

type PdfDocument = Awaited<ReturnType<typeof openPdf>>["doc"];

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
  readingPage(pageNumber, () => renderOne(doc, pageNumber, size));

const renderOne = async (doc: PdfDocument, pageNumber: number, size: RenderSize): Promise<RenderedPage> => {
  const page = await doc.getPage(pageNumber);
  try {
    const base = page.getViewport({ scale: 1 });
    const scale = scaleFor(size, base.width, base.height);
    const viewport = page.getViewport({ scale });
    // The epsilon keeps float noise (792 pt at 150 dpi = 1650.0000000000002) from adding a pixel row.
    const width = Math.max(1, Math.ceil(viewport.width - 1e-6));
    const height = Math.max(1, Math.ceil(viewport.height - 1e-6));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    await page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: context as unknown as CanvasRenderingContext2D,
      viewport,
    }).promise;
    return {
      pageNumber,
      png: canvas.toBuffer("image/png"),
      width,
      height,
      pageWidth: base.width,
      pageHeight: base.height,
      scale,
    };
  } finally {
    page.cleanup();
  }
};

/** Opens the PDF, renders the pages asked for (all when omitted) in order, and closes it. */
export const renderPdfPages = async (
  bytes: Uint8Array,
  size: RenderSize,
  pages?: number[],
): Promise<{ totalPages: number; pages: RenderedPage[] }> => {
  const { doc } = await openPdf(bytes);
  try {
    const wanted = pages ?? Array.from({ length: doc.numPages }, (_, i) => i + 1);
    const rendered: RenderedPage[] = [];
    for (const n of wanted) rendered.push(await renderPage(doc, n, size));
    return { totalPages: doc.numPages, pages: rendered };
  } finally {
    await doc.destroy();
  }
};

/** Page count without reading any page. */
export const countPdfPages = async (bytes: Uint8Array): Promise<number> => {
  const { doc } = await openPdf(bytes);
  try {
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
};
