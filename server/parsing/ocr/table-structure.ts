import { escapeHtml } from "../table-html";
import { findRulings, rulingOptionsFor } from "./rulings";
import {
  boxHeight,
  centreInside,
  meanConfidence,
  median,
  unionBox,
  type GrayImage,
  type OcrWord,
  type PixelBox,
  type Rule,
} from "./types";

/**
 * Table structure recovered from a page image and its OCR words, three ways, strongest evidence first:
 * 1. grid: horizontal and vertical ruling lines that cross; cells are the spaces between them, and a missing
 *    stretch of a line between two cells merges them (row and column spans);
 * 2. rules: two or more horizontal rules of the same width with no verticals (typeset tables: top, header and
 *    bottom rule); columns come from the gaps between word boxes;
 * 3. alignment: no lines at all, but three or more rows of short cells separated by wide gaps that line up.
 */

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

type Interval = [number, number];

const centreY = (b: PixelBox) => (b.top + b.bottom) / 2;

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

// ---------------------------------------------------------------------------------------------------------------
// 1. Grids of ruling lines

const crosses = (h: Rule, v: Rule, tol: number) =>
  v.at <= h.to + tol && v.atEnd >= h.from - tol && h.at <= v.to + tol && h.atEnd >= v.from - tol;

/** Positions (line centres) closer than `tol` are one boundary. */
const clusterPositions = (values: number[], tol: number): number[] => {
  const sorted = [...values].sort((a, b) => a - b);
  const groups: number[][] = [];
  for (const v of sorted) {
    const g = groups[groups.length - 1];
    if (g && v - (g[g.length - 1] ?? v) <= tol) g.push(v);
    else groups.push([v]);
  }
  return groups.map((g) => g.reduce((s, v) => s + v, 0) / g.length);
};

/** Drop boundaries closer than `minGap` to the previous one (double rules, a line drawn twice). */
const thinBoundaries = (positions: number[], minGap: number): number[] => {
  const out: number[] = [];
  for (const p of positions) {
    const last = out[out.length - 1];
    if (last === undefined || p - last >= minGap) out.push(p);
  }
  return out;
};

/**
 * How much of a boundary is drawn, 0–1, read from the pixels: for each step along [a, b], is there ink within
 * `half` pixels of the line position? Short stretches of line (a header's column separators, too short to be
 * found as lines by themselves) count too. The ends are trimmed so crossing lines do not count.
 */
const drawnShare = (
  gray: GrayImage,
  axis: "h" | "v",
  pos: number,
  a: number,
  b: number,
  half: number,
  words: readonly OcrWord[],
): number => {
  const cut = Math.min(half + 1, (b - a) * 0.2);
  const from = Math.ceil(a + cut);
  const to = Math.floor(b - cut);
  if (to <= from) return 0;
  const p0 = Math.max(0, Math.round(pos) - half);
  const p1 = Math.min((axis === "h" ? gray.height : gray.width) - 1, Math.round(pos) + half);
  // Letters that cross the line's position are not the line: stretches under a word are not counted. A word
  // OCR read with a bar in it ("Model|") took the line for a letter; it hides nothing.
  const hiding = words
    .filter((w) => !w.text.includes("|"))
    .filter((w) =>
      axis === "h"
        ? w.top <= p1 && w.bottom >= p0 && w.right >= from && w.left <= to
        : w.left <= p1 && w.right >= p0 && w.bottom >= from && w.top <= to,
    )
    .map((w): [number, number] => (axis === "h" ? [w.left, w.right] : [w.top, w.bottom]));
  const dark = (t: number, p: number) => {
    if (p < 0 || p >= (axis === "h" ? gray.height : gray.width)) return false;
    const value = axis === "h" ? gray.data[p * gray.width + t] : gray.data[t * gray.width + p];
    return (value ?? 255) < gray.darkBelow;
  };
  let drawn = 0;
  let counted = 0;
  for (let t = from; t <= to; t++) {
    if (hiding.some(([s, e]) => t >= s && t <= e)) continue;
    counted++;
    // A line is a thin dark run with paper on both sides; the stroke of a letter OCR missed, or a crossing
    // line, runs on past it.
    for (let p = p0; p <= p1; p++) {
      if (!dark(t, p)) continue;
      let q = p;
      while (q - p <= half * 2 && dark(t, q + 1)) q++;
      if (q - p <= half * 2 && !dark(t, p - 2) && !dark(t, q + 2)) drawn++;
      break;
    }
  }
  // All of it under text: nothing says a line is there.
  return counted < (to - from + 1) * 0.2 ? 0 : drawn / counted;
};

class UnionFind {
  private parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r] ?? r;
    return r;
  }
  union(a: number, b: number) {
    this.parent[this.find(a)] = this.find(b);
  }
}

/** Connected groups of crossing horizontal and vertical lines. */
const gridComponents = (horizontal: Rule[], vertical: Rule[], tol: number) => {
  const n = horizontal.length + vertical.length;
  const uf = new UnionFind(n);
  horizontal.forEach((h, i) =>
    vertical.forEach((v, j) => {
      if (crosses(h, v, tol)) uf.union(i, horizontal.length + j);
    }),
  );
  const groups = new Map<number, { h: Rule[]; v: Rule[] }>();
  for (let i = 0; i < n; i++) {
    const root = uf.find(i);
    const g = groups.get(root) ?? { h: [], v: [] };
    if (i < horizontal.length) g.h.push(horizontal[i] as Rule);
    else g.v.push(vertical[i - horizontal.length] as Rule);
    groups.set(root, g);
  }
  return [...groups.values()].filter((g) => g.h.length >= 2 && g.v.length >= 2);
};

/**
 * Header rows of a ruled grid: the first row, and every row its cells reach down to (a header cell spanning two
 * rows, or a group heading over sub-columns, makes the header two rows deep).
 */
const gridHeaderRows = (cells: TableCell[], rowCount: number): number => {
  let depth = 1;
  for (const c of cells) {
    if (c.row !== 0) continue;
    depth = Math.max(depth, c.rowSpan);
    if (c.colSpan > 1) depth = Math.max(depth, 2);
  }
  return Math.min(depth, Math.max(1, rowCount - 1));
};

/** OCR reads the ruling lines beside a cell's text as bars: "| Base Model |". */
const stripBars = (text: string) => text.replace(/^[|¦\s]+|[\s|¦]+$/g, "").trim();

const cellContent = (words: OcrWord[], box: PixelBox, taken: Set<OcrWord>) => {
  const inside = words.filter((w) => !taken.has(w) && centreInside(w, box));
  for (const w of inside) taken.add(w);
  return { text: stripBars(wordsText(inside)), confidence: inside.length ? meanConfidence(inside) : null };
};

/**
 * Splits a band between two ruled lines into text rows when its cells hold several rows that line up across the
 * columns (tables ruled only around the header and the body). A band where one cell wraps onto a second line
 * while the others hold one is a single row.
 */
const subRowBoundaries = (words: OcrWord[], band: PixelBox, xs: number[], header: boolean): number[] => {
  const inside = words.filter((w) => centreInside(w, band));
  const rows = groupRows(inside);
  if (rows.length < 2) return [];
  const columns = xs.slice(0, -1).map((x, c) => [x, xs[c + 1] ?? x] as const);
  const colsOf = (row: OcrWord[]) =>
    new Set(
      columns
        .map(([x0, x1], c) => (row.some((w) => (w.left + w.right) / 2 >= x0 && (w.left + w.right) / 2 < x1) ? c : -1))
        .filter((c) => c >= 0),
    );
  let filled = 0;
  let multi = 0;
  for (let c = 0; c < columns.length; c++) {
    const rowsHere = rows.filter((row) => colsOf(row).has(c)).length;
    if (rowsHere === 0) continue;
    filled++;
    if (rowsHere >= Math.max(2, Math.ceil(rows.length * 0.6))) multi++;
  }
  // A header of two levels: a heading over several columns, their own headings below it. The lower row fills
  // columns nothing above it fills (a row that only continues the cells above it is wrapped text).
  const last = rows[rows.length - 1] ?? [];
  const above = new Set(rows.slice(0, -1).flatMap((row) => [...colsOf(row)]));
  const lastCols = colsOf(last);
  const levels = header && lastCols.size >= 2 && [...lastCols].some((c) => !above.has(c));
  if (!levels && (filled === 0 || multi / filled < 0.6)) return [];
  const cuts: number[] = [];
  for (let i = 1; i < rows.length; i++) {
    const above = Math.max(...(rows[i - 1] ?? []).map((w) => w.bottom));
    const below = Math.min(...(rows[i] ?? []).map((w) => w.top));
    cuts.push((above + below) / 2);
  }
  return cuts;
};

/** Some phrase (words at ordinary spacing) in `band` runs across x. */
const runsAcross = (words: OcrWord[], x: number, band: PixelBox): boolean => {
  const inside = words.filter((w) => centreInside(w, band));
  if (inside.length === 0) return false;
  const gap = median(inside.map(boxHeight));
  return groupRows(inside).some((row) =>
    segmentsOf(row, gap).some((seg) => {
      const [a, b] = span(seg);
      return a < x - 2 && b > x + 2;
    }),
  );
};

/**
 * Row and column boundaries from the grid's rules. Open sides: rules that run past the outermost verticals (or
 * verticals past the outermost rules) still bound the table there. Null when fewer than two of either remain.
 */
const ruledBoundaries = (
  component: { h: Rule[]; v: Rule[] },
  lineHeight: number,
  tol: number,
): { xs: number[]; ys: number[] } | null => {
  const minGap = Math.max(4, lineHeight * 0.5);
  let ys = thinBoundaries(
    clusterPositions(
      component.h.map((r) => (r.at + r.atEnd) / 2),
      tol,
    ),
    minGap,
  );
  let xs = thinBoundaries(
    clusterPositions(
      component.v.map((r) => (r.at + r.atEnd) / 2),
      tol,
    ),
    minGap,
  );
  const hLong = Math.max(...component.h.map((r) => r.to - r.from));
  const hMain = component.h.filter((r) => r.to - r.from >= hLong * 0.5);
  const left = Math.min(...hMain.map((r) => r.from));
  const right = Math.max(...hMain.map((r) => r.to));
  if (xs[0] !== undefined && left < xs[0] - lineHeight) xs = [left, ...xs];
  if (xs[xs.length - 1] !== undefined && right > (xs[xs.length - 1] ?? 0) + lineHeight) xs = [...xs, right];
  const top = Math.min(...component.v.map((r) => r.from));
  const bottom = Math.max(...component.v.map((r) => r.to));
  if (ys[0] !== undefined && top < ys[0] - lineHeight) ys = [top, ...ys];
  if (ys[ys.length - 1] !== undefined && bottom > (ys[ys.length - 1] ?? 0) + lineHeight) ys = [...ys, bottom];
  if (ys.length < 2 || xs.length < 2) return null;
  return { xs, ys };
};

/**
 * Columns of text between two verticals that line up down the table are columns of their own: typeset tables often
 * rule off only the first column.
 */
const withTextColumns = (xs: number[], ys: number[], words: OcrWord[]): number[] => {
  const splitX: number[] = [];
  for (let c = 0; c + 1 < xs.length; c++) {
    const x0 = xs[c] ?? 0;
    const x1 = xs[c + 1] ?? 0;
    splitX.push(x0);
    const band = { left: x0, right: x1, top: ys[0] ?? 0, bottom: ys[ys.length - 1] ?? 0 };
    const layout = layoutColumns(
      words.filter((w) => centreInside(w, band)),
      1.0,
    );
    if (layout && layout.multiShare >= 0.5) {
      for (let i = 1; i < layout.columns.length; i++) {
        splitX.push(((layout.columns[i - 1]?.[1] ?? 0) + (layout.columns[i]?.[0] ?? 0)) / 2);
      }
    }
  }
  splitX.push(xs[xs.length - 1] ?? 0);
  return splitX;
};

/** Rows of text between two rules that line up across the columns are rows of their own, ruled or not. */
const withTextRows = ({
  xs,
  ys,
  words,
  gray,
  half,
}: {
  xs: number[];
  ys: number[];
  words: OcrWord[];
  gray: GrayImage;
  half: number;
}): { ys: number[]; drawnH: Set<number> } => {
  const drawnH = new Set<number>();
  const refined: number[] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    const y0 = ys[r] ?? 0;
    const y1 = ys[r + 1] ?? 0;
    refined.push(y0);
    drawnH.add(y0);
    const band = { left: xs[0] ?? 0, right: xs[xs.length - 1] ?? 0, top: y0, bottom: y1 };
    // Only a header not already split by a partial line can hold two levels of headings in one band.
    const levels = r === 0 && drawnShare(gray, "h", y1, xs[0] ?? 0, xs[xs.length - 1] ?? 0, half, words) >= 0.9;
    refined.push(...subRowBoundaries(words, band, xs, levels));
  }
  refined.push(ys[ys.length - 1] ?? 0);
  drawnH.add(ys[ys.length - 1] ?? 0);
  return { ys: refined, drawnH };
};

type CellArea = { r0: number; r1: number; c0: number; c1: number; n: number };

/**
 * The grid's cells: elementary cells merged where the line between two neighbours is missing, or the plain grid when
 * a merge is not a rectangle.
 */
const cellAreas = ({
  xs,
  ys,
  drawnV,
  drawnH,
  gray,
  words,
  half,
}: {
  xs: number[];
  ys: number[];
  drawnV: Set<number>;
  drawnH: Set<number>;
  gray: GrayImage;
  words: OcrWord[];
  half: number;
}): CellArea[] => {
  const rowCount = ys.length - 1;
  const colCount = xs.length - 1;
  const index = (r: number, c: number) => r * colCount + c;
  const uf = new UnionFind(rowCount * colCount);
  for (let r = 0; r < rowCount; r++) {
    for (let c = 0; c < colCount; c++) {
      const y0 = ys[r] ?? 0;
      const y1 = ys[r + 1] ?? 0;
      const x0 = xs[c] ?? 0;
      const x1 = xs[c + 1] ?? 0;
      const xNext = xs[c + 1] ?? 0;
      // A column boundary found in the text (no line) separates unless a word runs across it (a heading over
      // the columns below it).
      const joined = drawnV.has(xNext)
        ? drawnShare(gray, "v", xNext, y0, y1, half, words) < 0.6
        : runsAcross(words, xNext, { left: xs[0] ?? 0, right: xs[xs.length - 1] ?? 0, top: y0, bottom: y1 });
      if (c + 1 < colCount && joined) uf.union(index(r, c), index(r, c + 1));
      const yNext = ys[r + 1] ?? 0;
      // Boundaries added between text rows stand for a line that is not drawn: they always separate.
      if (r + 1 < rowCount && drawnH.has(yNext) && drawnShare(gray, "h", yNext, x0, x1, half, words) < 0.6) {
        uf.union(index(r, c), index(r + 1, c));
      }
    }
  }
  const groups = new Map<number, CellArea>();
  for (let r = 0; r < rowCount; r++) {
    for (let c = 0; c < colCount; c++) {
      const root = uf.find(index(r, c));
      const g = groups.get(root);
      if (!g) groups.set(root, { r0: r, r1: r, c0: c, c1: c, n: 1 });
      else {
        g.r0 = Math.min(g.r0, r);
        g.r1 = Math.max(g.r1, r);
        g.c0 = Math.min(g.c0, c);
        g.c1 = Math.max(g.c1, c);
        g.n++;
      }
    }
  }
  const spans = [...groups.values()];
  // A merge that is not a rectangle (a broken line between odd cells) is not a span; keep the plain grid.
  const rectangular = spans.every((g) => (g.r1 - g.r0 + 1) * (g.c1 - g.c0 + 1) === g.n);
  return rectangular
    ? spans
    : Array.from({ length: rowCount * colCount }, (_, i) => {
        const r = Math.floor(i / colCount);
        const c = i % colCount;
        return { r0: r, r1: r, c0: c, c1: c, n: 1 };
      });
};

const tableFromGrid = (
  component: { h: Rule[]; v: Rule[] },
  gray: GrayImage,
  words: OcrWord[],
  lineHeight: number,
  tol: number,
): RecoveredTable | null => {
  const half = Math.max(2, Math.ceil(tol / 3));
  const ruled = ruledBoundaries(component, lineHeight, tol);
  if (!ruled) return null;
  const drawnV = new Set<number>(ruled.xs);
  const xs = withTextColumns(ruled.xs, ruled.ys, words);
  const { ys, drawnH } = withTextRows({ xs, ys: ruled.ys, words, gray, half });

  const rowCount = ys.length - 1;
  const colCount = xs.length - 1;
  // One column between lines is a box around text (a note, a framed list), not a table.
  if (rowCount < 1 || colCount < 2) return null;
  const areas = cellAreas({ xs, ys, drawnV, drawnH, gray, words, half });

  const box: PixelBox = { left: xs[0] ?? 0, top: ys[0] ?? 0, right: xs[colCount] ?? 0, bottom: ys[rowCount] ?? 0 };
  const taken = new Set<OcrWord>();
  const cells: TableCell[] = areas
    .sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0)
    .map((a) => {
      const cellBox = { left: xs[a.c0] ?? 0, top: ys[a.r0] ?? 0, right: xs[a.c1 + 1] ?? 0, bottom: ys[a.r1 + 1] ?? 0 };
      return {
        row: a.r0,
        col: a.c0,
        rowSpan: a.r1 - a.r0 + 1,
        colSpan: a.c1 - a.c0 + 1,
        header: false,
        box: cellBox,
        ...cellContent(words, cellBox, taken),
      };
    });
  // A frame around a paragraph or a figure is a box, not a table.
  if (cells.filter((c) => c.text.length > 0).length < 2) return null;
  const headerRows = rowCount > 1 ? gridHeaderRows(cells, rowCount) : 0;
  for (const c of cells) c.header = c.row < headerRows;
  return { ...box, source: "grid", rowCount, colCount, headerRows, cells, words: taken };
};

// ---------------------------------------------------------------------------------------------------------------
// 2 and 3. Columns from the gaps between words

type ColumnLayout = {
  rows: OcrWord[][];
  columns: Interval[];
  cells: TableCell[];
  /** Share of rows with two or more filled cells. */
  multiShare: number;
  wordsPerCell: number;
  numericShare: number;
};

/** Splits a row into runs of words whose gaps are narrower than `gap`. */
const segmentsOf = (row: OcrWord[], gap: number): OcrWord[][] => {
  const segments: OcrWord[][] = [];
  for (const w of row) {
    const seg = segments[segments.length - 1];
    const last = seg?.[seg.length - 1];
    if (seg && last && w.left - last.right <= gap) seg.push(w);
    else segments.push([w]);
  }
  return segments;
};

const span = (words: OcrWord[]): Interval => [
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

const sameWidth = (a: Rule, b: Rule, tol: number) => Math.abs(a.from - b.from) <= tol && Math.abs(a.to - b.to) <= tol;

const tableFromRules = (
  rules: Rule[],
  words: OcrWord[],
  page: { width: number; height: number },
  lineHeight: number,
): RecoveredTable | null => {
  const top = rules[0];
  const bottom = rules[rules.length - 1];
  if (!top || !bottom) return null;
  const region: PixelBox = {
    left: top.from - lineHeight,
    top: top.atEnd,
    right: top.to + lineHeight,
    bottom: bottom.at,
  };
  if (boxHeight(region) < lineHeight * 1.5 || boxHeight(region) > page.height * 0.7) return null;
  const inside = words.filter((w) => centreInside(w, region));
  const layout = layoutColumns(inside, 1.0);
  if (!layout || layout.rows.length < 2 || layout.multiShare < 0.6) return null;
  // Rows above the second rule form the header (top rule, header rule, bottom rule); otherwise the first row.
  const second = rules.length >= 3 ? rules[1] : undefined;
  let headerRows = second
    ? layout.rows.filter((row) => Math.max(...row.map((w) => w.bottom)) <= (second.at + second.atEnd) / 2).length
    : 1;
  if (headerRows >= layout.rows.length) headerRows = 1;
  for (const c of layout.cells) c.header = c.row < headerRows;
  return {
    left: top.from,
    top: top.at,
    right: top.to,
    bottom: bottom.atEnd,
    source: "rules",
    rowCount: layout.rows.length,
    colCount: layout.columns.length,
    headerRows,
    cells: layout.cells,
    words: new Set(inside),
  };
};

/** Sets of same-width horizontal rules stacked close enough to frame one table. */
const ruleStacks = (rules: Rule[], page: { width: number; height: number }): Rule[][] => {
  const tol = Math.max(8, page.width * 0.02);
  const sorted = [...rules].sort((a, b) => a.at - b.at);
  const used = new Set<Rule>();
  const stacks: Rule[][] = [];
  for (const r of sorted) {
    if (used.has(r)) continue;
    const stack = [r];
    used.add(r);
    for (const other of sorted) {
      if (used.has(other) || other.at <= r.at) continue;
      const last = stack[stack.length - 1] as Rule;
      if (sameWidth(r, other, tol) && other.at - last.atEnd <= page.height * 0.35) {
        stack.push(other);
        used.add(other);
      }
    }
    if (stack.length >= 2) stacks.push(stack);
  }
  return stacks;
};

// ---------------------------------------------------------------------------------------------------------------
// 3. Aligned columns without any lines

const tablesFromAlignment = (words: OcrWord[], page: { width: number; height: number }): RecoveredTable[] => {
  const tables: RecoveredTable[] = [];
  const rows = groupRows(words);
  const textHeight = median(words.map(boxHeight));
  const wideGap = textHeight * 1.5;
  let run: OcrWord[][] = [];
  const flush = () => {
    if (run.length >= 3) {
      const inside = run.flat();
      const layout = layoutColumns(inside, 1.5);
      const ok =
        layout &&
        layout.rows.length >= 3 &&
        layout.multiShare >= 0.75 &&
        layout.wordsPerCell <= 3 &&
        (layout.columns.length >= 3 || layout.numericShare >= 0.5);
      if (layout && ok) {
        const box = unionBox(inside);
        if (boxHeight(box) < page.height * 0.8) {
          for (const c of layout.cells) c.header = c.row === 0;
          tables.push({
            ...box,
            source: "alignment",
            rowCount: layout.rows.length,
            colCount: layout.columns.length,
            headerRows: 1,
            cells: layout.cells,
            words: new Set(inside),
          });
        }
      }
    }
    run = [];
  };
  for (const row of rows) {
    const multi = segmentsOf(row, wideGap).length >= 2;
    const prev = run[run.length - 1];
    const close =
      prev && row[0] && prev[0]
        ? Math.min(...row.map((w) => w.top)) - Math.max(...prev.map((w) => w.bottom)) <= textHeight * 2.5
        : true;
    if (multi && close) run.push(row);
    else {
      flush();
      if (multi) run.push(row);
    }
  }
  flush();
  return tables;
};

// ---------------------------------------------------------------------------------------------------------------

/** Every table found on a page, top to bottom. Words used by one table are not offered to the next. */
export const findTables = ({
  gray,
  words,
  lineHeight,
}: {
  gray: GrayImage;
  words: OcrWord[];
  /** Typical text line height in pixels on this page. */
  lineHeight: number;
}): RecoveredTable[] => {
  const options = rulingOptionsFor(gray, lineHeight);
  const { horizontal, vertical } = findRulings(gray, options);
  const tol = options.maxThickness + 4;
  const tables: RecoveredTable[] = [];
  const free = () => {
    const used = new Set(tables.flatMap((t) => [...t.words]));
    return words.filter((w) => !used.has(w) && !tables.some((t) => centreInside(w, t)));
  };

  const gridRules = new Set<Rule>();
  const components = gridComponents(horizontal, vertical, tol);
  // Typeset tables often rule only the body with verticals: a rule of the same width just above or below the
  // grid (the top rule over the header) belongs to it.
  for (const component of components) {
    const taken = new Set(components.flatMap((c) => c.h));
    const longest = Math.max(...component.h.map((r) => r.to - r.from));
    const main = component.h.filter((r) => r.to - r.from >= longest * 0.8);
    for (let added = true; added;) {
      added = false;
      const top = Math.min(...component.h.map((r) => r.at));
      const bottom = Math.max(...component.h.map((r) => r.atEnd));
      for (const r of horizontal) {
        if (taken.has(r) || !main.some((m) => sameWidth(m, r, tol * 2))) continue;
        if ((r.atEnd < top && top - r.atEnd <= lineHeight * 4) || (r.at > bottom && r.at - bottom <= lineHeight * 4)) {
          component.h.push(r);
          taken.add(r);
          added = true;
        }
      }
    }
  }
  for (const component of components) {
    const table = tableFromGrid(component, gray, free(), lineHeight, tol);
    if (!table) continue;
    tables.push(table);
    for (const r of component.h) gridRules.add(r);
  }

  const loose = horizontal.filter(
    (r) => !gridRules.has(r) && !tables.some((t) => r.at >= t.top - tol && r.atEnd <= t.bottom + tol),
  );
  for (const stack of ruleStacks(loose, gray)) {
    const table = tableFromRules(stack, free(), gray, lineHeight);
    if (table) tables.push(table);
  }

  tables.push(...tablesFromAlignment(free(), gray));
  return tables.sort((a, b) => a.top - b.top);
};

// ---------------------------------------------------------------------------------------------------------------

/** HTML of a recovered table: header rows in <thead> as <th>, spans as colspan/rowspan. */
export const tableHtml = (table: Pick<RecoveredTable, "cells" | "rowCount" | "headerRows">): string => {
  const byRow = new Map<number, TableCell[]>();
  for (const c of table.cells) byRow.set(c.row, [...(byRow.get(c.row) ?? []), c]);
  const rowHtml = (r: number) => {
    const cells = (byRow.get(r) ?? []).sort((a, b) => a.col - b.col);
    const tds = cells.map((c) => {
      const tag = c.header ? "th" : "td";
      const attrs = `${c.colSpan > 1 ? ` colspan="${c.colSpan}"` : ""}${c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : ""}`;
      return `<${tag}${attrs}>${escapeHtml(c.text)}</${tag}>`;
    });
    return `<tr>${tds.join("")}</tr>`;
  };
  const head: string[] = [];
  const body: string[] = [];
  for (let r = 0; r < table.rowCount; r++) (r < table.headerRows ? head : body).push(rowHtml(r));
  return `<table>${head.length ? `<thead>${head.join("")}</thead>` : ""}${body.length ? `<tbody>${body.join("")}</tbody>` : ""}</table>`;
};

/** Plain text of a recovered table: one line per row, cells separated by a space. */
export const tableText = (table: Pick<RecoveredTable, "cells" | "rowCount">): string => {
  const lines: string[] = [];
  for (let r = 0; r < table.rowCount; r++) {
    const line = table.cells
      .filter((c) => c.row === r && c.text.trim())
      .sort((a, b) => a.col - b.col)
      .map((c) => c.text.trim())
      .join(" ");
    if (line) lines.push(line);
  }
  return lines.join("\n");
};
