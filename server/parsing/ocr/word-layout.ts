import { boxHeight, meanConfidence, median, unionBox, type OcrWord, type PixelBox, type TableCell } from "./types";

/** OCR words laid out: rows top to bottom, and columns from the gaps between words (table-structure.ts). */

export type Interval = [number, number];

export const centreY = (b: PixelBox) => (b.top + b.bottom) / 2;

/** Words grouped into visual rows (top to bottom), each row left to right. */
export const groupRows = (words: readonly OcrWord[]): OcrWord[][] => {
  const sorted = [...words].sort((a, b) => centreY(a) - centreY(b));
  const rows: { words: OcrWord[]; centre: number; height: number }[] = [];
  for (const w of sorted) {
    const row = rows[rows.length - 1];
    const h = boxHeight(w);
    if (row && Math.abs(centreY(w) - row.centre) <= 0.5 * Math.max(h, row.height)) {
      row.words.push(w);
      row.centre = (row.centre * (row.words.length - 1) + centreY(w)) / row.words.length;
      row.height = Math.max(row.height, h);
    } else {
      rows.push({ words: [w], centre: centreY(w), height: h });
    }
  }
  return rows.map((r) => r.words.sort((a, b) => a.left - b.left));
};

/** Reading-order text of some words: rows top to bottom, words left to right. */
export const wordsText = (words: readonly OcrWord[]): string =>
  groupRows(words)
    .map((row) => row.map((w) => w.text).join(" "))
    .join(" ")
    .trim();

/** OCR reads the ruling lines beside a cell's text as bars: "| Base Model |". */
export const stripBars = (text: string) => text.replace(/^[|¦\s]+|[\s|¦]+$/g, "").trim();

export type ColumnLayout = {
  rows: OcrWord[][];
  columns: Interval[];
  cells: TableCell[];
  /** Share of rows with two or more filled cells. */
  multiShare: number;
  wordsPerCell: number;
  numericShare: number;
};

/** Splits a row into runs of words whose gaps are narrower than `gap`. */
export const segmentsOf = (row: OcrWord[], gap: number): OcrWord[][] => {
  const segments: OcrWord[][] = [];
  for (const w of row) {
    const seg = segments[segments.length - 1];
    const last = seg?.[seg.length - 1];
    if (seg && last && w.left - last.right <= gap) seg.push(w);
    else segments.push([w]);
  }
  return segments;
};

export const span = (words: OcrWord[]): Interval => [
  Math.min(...words.map((w) => w.left)),
  Math.max(...words.map((w) => w.right)),
];

const NUMERIC_RE = /^[-+−–(]?[$€£¥]?\d[\d.,:%/ ]*[%)]?$|^[-–—]$/;

/**
 * Rows and columns of a region's words. Columns are the x ranges covered by the cells of rows that have two or
 * more cells; a cell that runs over a gap becomes a spanning cell.
 */
export const layoutColumns = (words: readonly OcrWord[], gapFactor: number): ColumnLayout | null => {
  if (words.length < 4) return null;
  const textHeight = median(words.map(boxHeight));
  const gap = textHeight * gapFactor;
  const rows = groupRows(words);
  const segmented = rows.map((row) => segmentsOf(row, gap));
  const multi = segmented.filter((s) => s.length >= 2);
  if (multi.length < 2) return null;

  const left = Math.min(...words.map((w) => w.left));
  const right = Math.max(...words.map((w) => w.right));
  const width = Math.ceil(right - left) + 1;
  const counts = new Uint16Array(width);
  for (const segments of multi) {
    for (const seg of segments) {
      const [a, b] = span(seg);
      for (let x = Math.floor(a - left); x <= Math.ceil(b - left) && x < width; x++) counts[x]!++;
    }
  }
  // With many rows, a few cells may bridge a gap (a long entry); with few rows, none may.
  const allowed = multi.length >= 8 ? Math.floor(multi.length * 0.1) : 0;
  const columns: Interval[] = [];
  let start = -1;
  for (let x = 0; x <= width; x++) {
    const filled = x < width && (counts[x] ?? 0) > allowed;
    if (filled && start < 0) start = x;
    if (!filled && start >= 0) {
      const prev = columns[columns.length - 1];
      // A sliver of a gap is noise between two words of one column.
      if (prev && start + left - prev[1] < textHeight * 0.5) prev[1] = x - 1 + left;
      else columns.push([start + left, x - 1 + left]);
      start = -1;
    }
  }
  if (columns.length < 2) return null;

  const cells: TableCell[] = [];
  let filledCells = 0;
  let numeric = 0;
  let wordTotal = 0;
  let multiRows = 0;
  segmented.forEach((segments, r) => {
    const byCol = new Map<number, { c1: number; words: OcrWord[] }>();
    for (const seg of segments) {
      const [a, b] = span(seg);
      let c0 = columns.findIndex(([x0, x1]) => Math.min(x1, b) - Math.max(x0, a) >= 0);
      if (c0 < 0) {
        // In a gap: the nearest column by centre.
        const mid = (a + b) / 2;
        c0 = columns.reduce(
          (best, [x0, x1], i) =>
            Math.abs((x0 + x1) / 2 - mid) < Math.abs(((columns[best]?.[0] ?? 0) + (columns[best]?.[1] ?? 0)) / 2 - mid)
              ? i
              : best,
          0,
        );
      }
      let c1 = c0;
      while (c1 + 1 < columns.length && (columns[c1 + 1]?.[0] ?? Infinity) <= b) c1++;
      const existing = byCol.get(c0);
      if (existing) {
        existing.words.push(...seg);
        existing.c1 = Math.max(existing.c1, c1);
      } else {
        byCol.set(c0, { c1, words: [...seg] });
      }
    }
    if (byCol.size >= 2) multiRows++;
    let nextFree = 0;
    for (const [c0, { c1, words: ws }] of [...byCol].sort((p, q) => p[0] - q[0])) {
      const col = Math.max(c0, nextFree);
      const end = Math.max(col, c1);
      if (col >= columns.length) break;
      const text = stripBars(ws.map((w) => w.text).join(" "));
      cells.push({
        row: r,
        col,
        rowSpan: 1,
        colSpan: end - col + 1,
        text,
        header: false,
        box: unionBox(ws),
        confidence: meanConfidence(ws),
      });
      nextFree = end + 1;
      filledCells++;
      wordTotal += ws.length;
      if (NUMERIC_RE.test(text)) numeric++;
    }
  });
  return {
    rows,
    columns,
    cells,
    multiShare: multiRows / rows.length,
    wordsPerCell: filledCells ? wordTotal / filledCells : 0,
    numericShare: filledCells ? numeric / filledCells : 0,
  };
};
