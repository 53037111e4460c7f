import type { GridCell } from "../table-structure";

/** Intermediate shapes of the PDF text-layer pipeline: runs → segments → lines → blocks. Coordinates are PDF points,
 * origin top-left of the page as displayed (rotation applied). */

export type Box = { left: number; top: number; right: number; bottom: number };

/** Characters that continue one another on a line in one font (pdfium/runs.ts), placed on the page. */
export type Run = Box & {
  text: string;
  fontSize: number;
  fontName: string;
  /** A fixed-pitch font: code listings, sometimes e-mail addresses. */
  mono: boolean;
  /** Baseline y (top-left origin). */
  baseline: number;
};

/** Runs of one visual row that sit close together; a wide gap (table cell, column gutter) starts a new segment. */
export type Segment = Box & {
  text: string;
  runs: Run[];
  fontSize: number;
  fontName: string;
  row: number;
};

/** Segments of one row within one column region, left to right. */
export type Line = Box & {
  text: string;
  segments: Segment[];
  fontSize: number;
  fontName: string;
  baseline: number;
};

/** A table found from text positions (unruled-tables.ts, contents.ts): cells with spans, header rows first. */
export type UnruledTable = {
  rows: number;
  cols: number;
  headerRows: number;
  cells: GridCell[];
  /** A table of contents (contents.ts): entry and page number. */
  kind?: "contents";
};

export type Block = Box & {
  lines: Line[];
  kind: "text" | "table";
  /** Filled for tables: cell text per row. */
  rows?: string[][];
  /** Filled for tables found from text positions: cells with spans and the header rows. */
  table?: UnruledTable;
  /** An item of a list whose rows line up like a table's (term-lists.ts): a list item, whatever its marker. */
  item?: boolean;
};

/** A text line printed at an angle (margin stamps like arXiv's): kept, but outside the reading flow. */
export type RotatedText = Box & { text: string; fontSize: number };

export type PageText = {
  pageNumber: number;
  width: number;
  height: number;
  runs: Run[];
  rotated: RotatedText[];
};

export const union = (boxes: readonly Box[]): Box => {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const b of boxes) {
    if (b.left < left) left = b.left;
    if (b.top < top) top = b.top;
    if (b.right > right) right = b.right;
    if (b.bottom > bottom) bottom = b.bottom;
  }
  return { left, top, right, bottom };
};

/** The value that covers the most weight (character counts), e.g. the body font size of a page. */
export const weightedMode = <T>(entries: Iterable<[T, number]>): T | undefined => {
  const totals = new Map<T, number>();
  for (const [key, weight] of entries) totals.set(key, (totals.get(key) ?? 0) + weight);
  let best: T | undefined;
  let bestWeight = -Infinity;
  for (const [key, weight] of totals) {
    if (weight > bestWeight) {
      best = key;
      bestWeight = weight;
    }
  }
  return best;
};

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Math.max over a list without spreading it into arguments (large pages would overflow the call stack). */
export const maxOf = (values: Iterable<number>): number => {
  let best = -Infinity;
  for (const v of values) if (v > best) best = v;
  return best;
};

export const minOf = (values: Iterable<number>): number => {
  let best = Infinity;
  for (const v of values) if (v < best) best = v;
  return best;
};
