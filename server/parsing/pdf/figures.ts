import { readingPage } from "../page-watch";
import { describeFailure } from "../failure";
import type { ParsedElement } from "../types";
import { cropPng } from "../vision/crop";
import { openPdf } from "./load";
import { renderPage } from "./render";
import type { Box } from "./types";

type PdfJs = Awaited<ReturnType<typeof openPdf>>["pdfjs"];
type PdfDocument = Awaited<ReturnType<typeof openPdf>>["doc"];
type PdfPage = Awaited<ReturnType<PdfDocument["getPage"]>>;
type Matrix = [number, number, number, number, number, number];

/** A horizontal rule drawn on the page (stroked segment or hairline rectangle), in points, top-left origin. */
export type HorizontalLine = { x0: number; x1: number; y: number };

/** A vertical rule (table column border), in points, top-left origin. */
export type VerticalLine = { y0: number; y1: number; x: number };

/** An image painted on the page: where it lands (points, top-left origin) and its own pixel size. */
export type PaintedImage = { box: Box; pixelWidth: number; pixelHeight: number };

export type PageGraphics = {
  width: number;
  height: number;
  horizontalLines: HorizontalLine[];
  verticalLines: VerticalLine[];
  images: PaintedImage[];
};

/** Vector maps and plots can paint millions of segments; past these we know enough about the page. */
const MAX_LINES_PER_PAGE = 5000;
const MAX_IMAGES_PER_PAGE = 200;
/** A stroke shorter than this is an underline, a tick or a glyph-like mark, not a table rule. */
const MIN_RULE_LENGTH = 20;
/** Filled rectangles at most this tall are rules (TeX draws \hline and booktabs rules as filled boxes). */
const MAX_RULE_THICKNESS = 3;
/** Vertical borders of table cells can be short (one row of text). */
const MIN_VERTICAL_RULE = 6;

const multiply = (m: Matrix, n: readonly number[]): Matrix => {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = n;
  return [
    m[0] * a + m[2] * b,
    m[1] * a + m[3] * b,
    m[0] * c + m[2] * d,
    m[1] * c + m[3] * d,
    m[0] * e + m[2] * f + m[4],
    m[1] * e + m[3] * f + m[5],
  ];
};

const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

const boundsOf = (points: [number, number][]): Box => {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
};

/** pdfjs DrawOPS codes inside a constructPath's path data. */
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_CURVE_TO = 3;
const CLOSE_PATH = 4;

/**
 * Subpaths of a constructPath in device space (each a polyline; curves keep only their end points, enough to tell
 * a straight rule or a rectangle from anything else).
 */
const subpaths = (data: ArrayLike<number>, ctm: Matrix): { points: [number, number][]; closed: boolean }[] => {
  const result: { points: [number, number][]; closed: boolean }[] = [];
  let current: { points: [number, number][]; closed: boolean } | null = null;
  for (let i = 0; i < data.length;) {
    const op = data[i++];
    const take = (n: number) => Array.from({ length: n }, () => Number(data[i++]));
    if (op === MOVE_TO) {
      const [x = 0, y = 0] = take(2);
      current = { points: [apply(ctm, x, y)], closed: false };
      result.push(current);
    } else if (op === LINE_TO || op === CURVE_TO || op === QUADRATIC_CURVE_TO) {
      const values = take(op === LINE_TO ? 2 : op === CURVE_TO ? 6 : 4);
      const [x = 0, y = 0] = values.slice(-2);
      if (!current) {
        current = { points: [], closed: false };
        result.push(current);
      }
      current.points.push(apply(ctm, x, y));
    } else if (op === CLOSE_PATH) {
      if (current) current.closed = true;
    } else {
      break; // An unknown code: the rest cannot be decoded reliably.
    }
  }
  return result;
};

/**
 * Walks a page's operator list with the current transformation matrix (save/restore, cm, form XObjects) and collects
 * the horizontal rules and painted images, in page points with the top-left origin of the page as displayed. Used
 * by `auto` (ruling-line tables, page-sized scans) and by figure extraction.
 */
export const scanPageGraphics = async (pdfjs: PdfJs, page: PdfPage): Promise<PageGraphics> => {
  const { OPS } = pdfjs;
  const viewport = page.getViewport({ scale: 1 });
  const operators = await page.getOperatorList();
  const horizontalLines: HorizontalLine[] = [];
  const verticalLines: VerticalLine[] = [];
  const images: PaintedImage[] = [];
  const stack: Matrix[] = [];
  let ctm = viewport.transform.slice(0, 6) as Matrix;
  // Annotation appearances (stamps, widgets) are not page content; their images are not figures.
  let annotationDepth = 0;

  const addRule = (x0: number, x1: number, y: number) => {
    if (horizontalLines.length >= MAX_LINES_PER_PAGE) return;
    if (Math.abs(x1 - x0) < MIN_RULE_LENGTH || !Number.isFinite(y)) return;
    horizontalLines.push({ x0: Math.min(x0, x1), x1: Math.max(x0, x1), y });
  };
  const addVertical = (y0: number, y1: number, x: number) => {
    if (verticalLines.length >= MAX_LINES_PER_PAGE) return;
    if (Math.abs(y1 - y0) < MIN_VERTICAL_RULE || !Number.isFinite(x)) return;
    verticalLines.push({ y0: Math.min(y0, y1), y1: Math.max(y0, y1), x });
  };

  const addPath = (paintOp: number, data: ArrayLike<number>) => {
    const closing = [OPS.closeStroke, OPS.closeFillStroke, OPS.closeEOFillStroke].includes(paintOp);
    const filled =
      [OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke].includes(paintOp) ||
      (closing && paintOp !== OPS.closeStroke);
    const stroked = closing || [OPS.stroke, OPS.fillStroke, OPS.eoFillStroke].includes(paintOp);
    if (!stroked && !filled) return; // endPath: a clipping path, nothing painted.
    for (const { points, closed: closedPath } of subpaths(data, ctm)) {
      const closed = closedPath || closing;
      if (points.length < 2) continue;
      const box = boundsOf(points);
      // A fill closes its path implicitly, so a thin filled shape is a rule whether or not it says "close".
      if (filled && box.bottom - box.top <= MAX_RULE_THICKNESS) {
        addRule(box.left, box.right, (box.top + box.bottom) / 2);
        continue;
      }
      if (filled && box.right - box.left <= MAX_RULE_THICKNESS) {
        addVertical(box.top, box.bottom, (box.left + box.right) / 2);
        continue;
      }
      if (!stroked) continue;
      const ring = closed ? [...points, points[0] as [number, number]] : points;
      for (let i = 1; i < ring.length; i++) {
        const [ax, ay] = ring[i - 1] as [number, number];
        const [bx, by] = ring[i] as [number, number];
        if (Math.abs(ay - by) <= 1) addRule(ax, bx, (ay + by) / 2);
        else if (Math.abs(ax - bx) <= 1) addVertical(ay, by, (ax + bx) / 2);
      }
    }
  };

  const { fnArray, argsArray } = operators;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save:
      case OPS.beginGroup:
        stack.push(ctm);
        break;
      case OPS.restore:
      case OPS.endGroup:
      case OPS.paintFormXObjectEnd:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.transform:
        if (args) ctm = multiply(ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin: {
        stack.push(ctm);
        const matrix = args?.[0] as number[] | null | undefined;
        if (matrix && matrix.length >= 6) ctm = multiply(ctm, Array.from(matrix));
        break;
      }
      case OPS.beginAnnotation:
        annotationDepth++;
        break;
      case OPS.endAnnotation:
        annotationDepth = Math.max(0, annotationDepth - 1);
        break;
      case OPS.constructPath: {
        if (annotationDepth > 0 || !args) break;
        const [paintOp, pathData] = args as [number, ArrayLike<number>[] | null];
        const data = pathData?.[0];
        if (data && typeof data !== "string" && typeof data.length === "number") addPath(paintOp, data);
        break;
      }
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject: {
        if (annotationDepth > 0 || images.length >= MAX_IMAGES_PER_PAGE || !args) break;
        // An image fills the unit square of its transform.
        const box = boundsOf([apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)]);
        const inline = args[0] as { width?: number; height?: number } | null;
        const pixelWidth = fn === OPS.paintImageXObject ? Number(args[1]) : Number(inline?.width);
        const pixelHeight = fn === OPS.paintImageXObject ? Number(args[2]) : Number(inline?.height);
        images.push({ box, pixelWidth: pixelWidth || 0, pixelHeight: pixelHeight || 0 });
        break;
      }
    }
  }
  return { width: viewport.width, height: viewport.height, horizontalLines, verticalLines, images };
};

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

const figuresOfPage = async (
  pdfjs: PdfJs,
  doc: PdfDocument,
  pageNumber: number,
  room: number,
): Promise<ParsedElement[]> => {
  const page = await doc.getPage(pageNumber);
  let found: PaintedImage[];
  let layout: { width: number; height: number };
  try {
    const graphics = await scanPageGraphics(pdfjs, page);
    found = figureBoxes(graphics).slice(0, room);
    layout = { width: round(graphics.width), height: round(graphics.height) };
  } finally {
    page.cleanup();
  }
  if (found.length === 0) return [];
  // One render per page, at a resolution that keeps the largest crop within bounds.
  const largest = Math.max(...found.map((f) => Math.max(f.box.right - f.box.left, f.box.bottom - f.box.top)));
  const dpi = Math.min(FIGURE_DPI, (MAX_CROP_SIDE / largest) * 72);
  const rendered = await renderPage(doc, pageNumber, { dpi });
  const crops = await cropPng(
    rendered.png,
    found.map(({ box }) => ({
      left: box.left * rendered.scale,
      top: box.top * rendered.scale,
      width: (box.right - box.left) * rendered.scale,
      height: (box.bottom - box.top) * rendered.scale,
    })),
    MAX_CROP_SIDE,
  );
  const elements: ParsedElement[] = [];
  found.forEach(({ box, pixelWidth, pixelHeight }, i) => {
    const crop = crops[i];
    if (!crop) return;
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
  });
  return elements;
};

/**
 * Embedded pictures of a PDF as Image elements (PNG crops of the rendered page, boxes in points), page by page in
 * drawing order. Vector drawings are not found: they have no image to point at. A page whose figures cannot be
 * cut out is skipped with a line in `warnings` (when given): figures are extras, never a reason to fail a parse.
 */
export const extractFigures = async (
  bytes: Uint8Array,
  pages?: readonly number[],
  warnings?: string[],
): Promise<ParsedElement[]> => {
  const { pdfjs, doc } = await openPdf(bytes);
  const figures: ParsedElement[] = [];
  try {
    const limit = Math.min(doc.numPages, MAX_PAGES);
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
        figures.push(...(await readingPage(pageNumber, () => figuresOfPage(pdfjs, doc, pageNumber, left))));
      } catch (error) {
        warnings?.push(`Figures of page ${pageNumber} could not be extracted (${describeFailure(error)})`);
      }
    }
  } finally {
    await doc.destroy();
  }
  return figures;
};
