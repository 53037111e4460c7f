/**
 * What the OCR engine reads off one image. Boxes are pixels of the image that was recognised, origin top-left;
 * confidences are Tesseract's, 0–100.
 */

export type PixelBox = { left: number; top: number; right: number; bottom: number };

/** A page image in grey levels (raster.ts), with the level below which a pixel is ink. */
export type GrayImage = { data: Uint8Array; width: number; height: number; darkBelow: number };

/** A line segment in pixels: `from`–`to` along the line, `at`–`atEnd` across it (its thickness). */
export type Rule = { from: number; to: number; at: number; atEnd: number };

/** The ruled lines of a page (rulings.ts). */
export type Rulings = { horizontal: Rule[]; vertical: Rule[] };

/** The same box arithmetic as the text-layer parser's, in pixels. */
export { median, union as unionBox } from "../pdf/types";

export type OcrWord = PixelBox & { text: string; confidence: number };

export type OcrLine = PixelBox & {
  text: string;
  confidence: number;
  words: OcrWord[];
  /** Tesseract's row height (x-height plus ascenders and descenders), a steadier size measure than the box. */
  rowHeight: number;
};

export type OcrParagraph = PixelBox & { text: string; confidence: number; lines: OcrLine[] };

export type OcrBlock = PixelBox & {
  text: string;
  confidence: number;
  paragraphs: OcrParagraph[];
  /** Tesseract's layout analysis took the block for vertical text (its lines run down the page). */
  vertical?: boolean;
};

export type OcrPage = {
  /** Pixel size of the image. */
  width: number;
  height: number;
  text: string;
  confidence: number;
  blocks: OcrBlock[];
};

export const boxWidth = (b: PixelBox) => b.right - b.left;
export const boxHeight = (b: PixelBox) => b.bottom - b.top;

/** The centre of `inner` lies inside `outer` (how words are assigned to table cells and regions). */
export const centreInside = (inner: PixelBox, outer: PixelBox, pad = 0): boolean => {
  const cx = (inner.left + inner.right) / 2;
  const cy = (inner.top + inner.bottom) / 2;
  return cx >= outer.left - pad && cx <= outer.right + pad && cy >= outer.top - pad && cy <= outer.bottom + pad;
};

/** Mean word confidence weighted by characters, so a long well-read word counts more than a stray mark. */
export const meanConfidence = (words: readonly OcrWord[]): number => {
  let total = 0;
  let weight = 0;
  for (const w of words) {
    const n = Math.max(1, w.text.length);
    total += w.confidence * n;
    weight += n;
  }
  return weight === 0 ? 0 : total / weight;
};

/** Tables recovered from a page image (table-structure.ts). */
export type TableCell = {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  header: boolean;
  /** Where the cell is, in pixels (ruled grids: the space between the lines). */
  box: PixelBox;
  /** Mean confidence of the cell's words (0–100), null when empty. */
  confidence: number | null;
};

export type RecoveredTable = PixelBox & {
  source: "grid" | "rules" | "alignment";
  rowCount: number;
  colCount: number;
  headerRows: number;
  cells: TableCell[];
  /** The OCR words the table took; they leave the running text. */
  words: Set<OcrWord>;
};
