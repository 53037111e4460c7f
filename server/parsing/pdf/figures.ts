import { readingPage } from "../page-watch";
import { describeFailure } from "../failure";
import type { ParsedElement } from "../types";
import { openPdf, type PdfDocument } from "./load";
import { scanPageGraphics, type PageGraphics, type PaintedImage } from "./pdfium/graphics";
import { renderRegion } from "./render";
import type { Box } from "./types";

export { scanPageGraphics, type HorizontalLine, type PageGraphics, type VerticalLine } from "./pdfium/graphics";

/** At least ~100×100 pt of page: smaller pictures are logos, icons and bullets. */
const MIN_FIGURE_SIDE = 50;
const MIN_FIGURE_AREA = 100 * 100;
/** An image covering this much of the page is the page itself (a scan), not a figure on it. */
const SCAN_COVERAGE = 0.85;
export const MAX_FIGURES = 50;
const MAX_CROP_SIDE = 2000;
const FIGURE_DPI = 150;
const TIME_BUDGET_MS = 2 * 60_000;
/** Same page bound as the text-layer parser. */
const MAX_PAGES = 2000;

const clip = (box: Box, width: number, height: number): Box => ({
  left: Math.max(0, box.left),
  top: Math.max(0, box.top),
  right: Math.min(width, box.right),
  bottom: Math.min(height, box.bottom),
});

const area = (b: Box) => Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top);

const overlap = (a: Box, b: Box) =>
  area({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });

/** The painted images of a page that are figures: big enough, on the page, not the page itself, not repeated. */
export const figureBoxes = (graphics: PageGraphics): PaintedImage[] => {
  const pageArea = graphics.width * graphics.height;
  const kept: PaintedImage[] = [];
  for (const image of graphics.images) {
    const box = clip(image.box, graphics.width, graphics.height);
    const w = box.right - box.left;
    const h = box.bottom - box.top;
    if (w < MIN_FIGURE_SIDE || h < MIN_FIGURE_SIDE || w * h < MIN_FIGURE_AREA) continue;
    if (w * h >= SCAN_COVERAGE * pageArea) continue;
    // The same picture painted twice (or a mask over its image) yields one figure.
    if (kept.some((k) => overlap(k.box, box) >= 0.9 * Math.max(area(k.box), w * h))) continue;
    kept.push({ ...image, box });
  }
  return kept;
};

const round = (n: number) => Math.round(n * 100) / 100;

/** Graphics of a page, read once however many parts of a parse ask for them. */
export type GraphicsReader = (pageNumber: number) => Promise<PageGraphics>;

export const graphicsReader = (doc: PdfDocument): GraphicsReader => {
  const read = new Map<number, Promise<PageGraphics>>();
  return (pageNumber) => {
    let graphics = read.get(pageNumber);
    if (!graphics) read.set(pageNumber, (graphics = scanPageGraphics(doc, pageNumber)));
    return graphics;
  };
};

const figuresOfPage = async (
  doc: PdfDocument,
  graphicsOf: GraphicsReader,
  pageNumber: number,
  room: number,
): Promise<ParsedElement[]> => {
  const graphics = await graphicsOf(pageNumber);
  const found = figureBoxes(graphics).slice(0, room);
  const layout = { width: round(graphics.width), height: round(graphics.height) };
  const elements: ParsedElement[] = [];
  for (const { box, pixelWidth, pixelHeight } of found) {
    // Drawn at up to FIGURE_DPI, no larger than MAX_CROP_SIDE pixels a side.
    const side = Math.max(box.right - box.left, box.bottom - box.top);
    const scale = Math.min(FIGURE_DPI / 72, MAX_CROP_SIDE / side);
    const crop = await renderRegion(doc, pageNumber, box, scale);
    elements.push({
      type: "Image",
      text: "",
      pageNumber,
      boundingBox: {
        left: round(box.left),
        top: round(box.top),
        width: round(box.right - box.left),
        height: round(box.bottom - box.top),
      },
      pageLayout: layout,
      imgBase64: crop.png.toString("base64"),
      metadata: {
        image_width: crop.width,
        image_height: crop.height,
        ...(pixelWidth && pixelHeight ? { source_image_width: pixelWidth, source_image_height: pixelHeight } : {}),
      },
    });
  }
  return elements;
};

/**
 * Embedded pictures of an open PDF as Image elements (PNG renders of their boxes, in points), page by page in
 * drawing order. Vector drawings are not found: they have no image to point at. A page whose figures cannot be
 * cut out is skipped with a line in `warnings` (when given): figures are extras, never a reason to fail a parse.
 */
export const figuresOf = async (
  doc: PdfDocument,
  {
    pages,
    warnings,
    graphicsOf = graphicsReader(doc),
  }: { pages?: readonly number[]; warnings?: string[]; graphicsOf?: GraphicsReader } = {},
): Promise<ParsedElement[]> => {
  const figures: ParsedElement[] = [];
  const limit = Math.min(doc.pageCount, MAX_PAGES);
  const wanted = (pages ?? Array.from({ length: limit }, (_, i) => i + 1)).filter((n) => n >= 1 && n <= limit);
  const started = Date.now();
  for (const pageNumber of wanted) {
    if (figures.length >= MAX_FIGURES) {
      warnings?.push(`Only the first ${MAX_FIGURES} figures were extracted (up to page ${pageNumber - 1})`);
      break;
    }
    if (Date.now() - started > TIME_BUDGET_MS) {
      warnings?.push(`Figures were looked for up to page ${pageNumber - 1}: the time limit was reached`);
      break;
    }
    try {
      const left = MAX_FIGURES - figures.length;
      figures.push(...(await readingPage(pageNumber, () => figuresOfPage(doc, graphicsOf, pageNumber, left))));
    } catch (error) {
      warnings?.push(`Figures of page ${pageNumber} could not be extracted (${describeFailure(error)})`);
    }
  }
  return figures;
};

/** figuresOf for a PDF in memory. */
export const extractFigures = async (
  bytes: Uint8Array,
  pages?: readonly number[],
  warnings?: string[],
): Promise<ParsedElement[]> => {
  const doc = await openPdf(bytes);
  try {
    return await figuresOf(doc, { pages, warnings });
  } finally {
    doc.close();
  }
};
