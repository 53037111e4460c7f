import { readingPage } from "../../page-watch";
import type { Box } from "../types";
import { applyMatrix, multiplyMatrix, type Matrix, type PdfDocument, type PdfPage } from "./document";

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
  /** Small filled shapes about as wide as tall (a dot, a square, a diamond): bullets a browser or a layout program draws. */
  marks: Box[];
};

/** Vector maps and plots can paint millions of segments; past these we know enough about the page. */
const MAX_LINES_PER_PAGE = 5000;
const MAX_IMAGES_PER_PAGE = 200;
/** Past this many objects (forms included) the rest of the page is not looked at. */
const MAX_OBJECTS_PER_PAGE = 200_000;
/** A stroke shorter than this is an underline, a tick or a glyph-like mark, not a table rule. */
const MIN_RULE_LENGTH = 20;
/** Filled rectangles at most this tall are rules (TeX draws \hline and booktabs rules as filled boxes). */
const MAX_RULE_THICKNESS = 3;
/** Vertical borders of table cells can be short (one row of text). */
const MIN_VERTICAL_RULE = 6;
/** A filled shape this small each way, and no more than twice as wide as tall or the other way, is a mark. */
const MARK_SIZE = { min: 1.5, max: 8 } as const;
const MAX_MARKS_PER_PAGE = 2000;

/** FPDF_PAGEOBJ_* and FPDF_SEGMENT_* of the C API. */
const OBJECT = { path: 2, image: 3, form: 5 } as const;
const SEGMENT = { lineTo: 0, bezierTo: 1, moveTo: 2 } as const;

const boundsOf = (points: [number, number][]): Box => {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const [x, y] of points) {
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  }
  return { left, top, right, bottom };
};

const isMark = (box: Box): boolean => {
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  const within = (d: number) => d >= MARK_SIZE.min && d <= MARK_SIZE.max;
  return within(width) && within(height) && width < 2 * height && height < 2 * width;
};

type Subpath = { points: [number, number][]; closed: boolean; curved: boolean };

/** An object's matrix (its space to its parent's); the identity when PDFium has none. */
const matrixOf = (doc: PdfDocument, object: number): Matrix => {
  const { api, heap } = doc.pdfium;
  const { scratch } = doc;
  if (!api.FPDFPageObj_GetMatrix(object, scratch)) return [1, 0, 0, 1, 0, 0];
  const m = heap().f32.subarray(scratch >> 2, (scratch >> 2) + 6);
  return [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!];
};

/** Subpaths in display space; curves keep their end points only (enough to tell a rule or a box from a curve). */
const subpaths = (doc: PdfDocument, path: number, toDisplay: Matrix): Subpath[] => {
  const { api, heap } = doc.pdfium;
  const { scratch } = doc;
  const result: Subpath[] = [];
  let current: Subpath | null = null;
  let curvePoints = 0;
  const segments = api.FPDFPath_CountSegments(path);
  for (let i = 0; i < segments; i++) {
    const segment = api.FPDFPath_GetPathSegment(path, i);
    if (!segment || !api.FPDFPathSegment_GetPoint(segment, scratch, scratch + 4)) continue;
    const { f32 } = heap();
    const point = applyMatrix(toDisplay, f32[scratch >> 2]!, f32[(scratch >> 2) + 1]!);
    const type = api.FPDFPathSegment_GetType(segment);
    if (type === SEGMENT.moveTo || !current) {
      current = { points: [point], closed: false, curved: false };
      result.push(current);
      curvePoints = 0;
    } else if (type === SEGMENT.bezierTo) {
      // Two control points, then the end point.
      current.curved = true;
      if (++curvePoints % 3 === 0) current.points.push(point);
    } else {
      current.points.push(point);
    }
    if (api.FPDFPathSegment_GetClose(segment)) current.closed = true;
  }
  return result;
};

/**
 * The page's drawing: horizontal and vertical rules (for ruled tables) and painted images (figures, scans), in page
 * points with the top-left origin of the page as displayed. Annotations are not page content and are not read.
 */
const scan = (doc: PdfDocument, page: PdfPage): PageGraphics => {
  const { api, heap } = doc.pdfium;
  const { scratch } = doc;
  const horizontalLines: HorizontalLine[] = [];
  const verticalLines: VerticalLine[] = [];
  const images: PaintedImage[] = [];
  const marks: Box[] = [];
  let objects = 0;

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

  const addPath = (path: number, toDisplay: Matrix) => {
    api.FPDFPath_GetDrawMode(path, scratch, scratch + 4);
    const { i32 } = heap();
    const filled = i32[scratch >> 2] !== 0;
    const stroked = i32[(scratch >> 2) + 1] !== 0;
    if (!stroked && !filled) return; // A clipping path: nothing painted.
    for (const { points, closed, curved } of subpaths(doc, path, toDisplay)) {
      if (points.length < 2) continue;
      const box = boundsOf(points);
      // A small ring drawn in outline is a bullet too (a browser's second-level "circle"); a small box in outline is
      // more often a form's checkbox.
      if ((filled || (stroked && curved)) && isMark(box)) {
        if (marks.length < MAX_MARKS_PER_PAGE) marks.push(box);
        continue;
      }
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
      const ring = closed ? [...points, points[0]!] : points;
      for (let i = 1; i < ring.length; i++) {
        const [ax, ay] = ring[i - 1]!;
        const [bx, by] = ring[i]!;
        if (Math.abs(ay - by) <= 1) addRule(ax, bx, (ay + by) / 2);
        else if (Math.abs(ax - bx) <= 1) addVertical(ay, by, (ax + bx) / 2);
      }
    }
  };

  const addImage = (image: number, toDisplay: Matrix) => {
    if (images.length >= MAX_IMAGES_PER_PAGE) return;
    // An image fills the unit square of its matrix.
    const box = boundsOf([
      applyMatrix(toDisplay, 0, 0),
      applyMatrix(toDisplay, 1, 0),
      applyMatrix(toDisplay, 0, 1),
      applyMatrix(toDisplay, 1, 1),
    ]);
    const sized = api.FPDFImageObj_GetImagePixelSize(image, scratch, scratch + 4);
    const { i32 } = heap();
    images.push({
      box,
      pixelWidth: sized ? i32[scratch >> 2]! >>> 0 : 0,
      pixelHeight: sized ? i32[(scratch >> 2) + 1]! >>> 0 : 0,
    });
  };

  /** Objects of the page, and of the forms it draws, each with the map from its space to the displayed page. */
  const walk = (object: number, parent: Matrix) => {
    if (++objects > MAX_OBJECTS_PER_PAGE) return;
    const type = api.FPDFPageObj_GetType(object);
    if (type !== OBJECT.path && type !== OBJECT.image && type !== OBJECT.form) return;
    const toDisplay = multiplyMatrix(parent, matrixOf(doc, object));
    if (type === OBJECT.path) addPath(object, toDisplay);
    else if (type === OBJECT.image) addImage(object, toDisplay);
    else {
      const count = api.FPDFFormObj_CountObjects(object);
      for (let i = 0; i < count; i++) walk(api.FPDFFormObj_GetObject(object, i), toDisplay);
    }
  };
  const count = api.FPDFPage_CountObjects(page.handle);
  for (let i = 0; i < count; i++) walk(api.FPDFPage_GetObject(page.handle, i), page.toDisplay);
  return { width: page.width, height: page.height, horizontalLines, verticalLines, images, marks };
};

/** The drawing of one page (1-based), under the per-page budget. */
export const scanPageGraphics = (doc: PdfDocument, pageNumber: number): Promise<PageGraphics> =>
  readingPage(pageNumber, async () => doc.withPage(pageNumber, (page) => scan(doc, page)));
