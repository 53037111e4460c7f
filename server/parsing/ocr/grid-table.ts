import {
  boxHeight,
  centreInside,
  meanConfidence,
  median,
  type GrayImage,
  type OcrWord,
  type PixelBox,
  type RecoveredTable,
  type Rule,
  type TableCell,
} from "./types";
import { groupRows, layoutColumns, segmentsOf, span, stripBars, wordsText } from "./word-layout";

/**
 * Tables from ruling lines (table-structure.ts, the first way): horizontal and vertical lines that cross; cells are
 * the spaces between them, and a missing stretch of a line between two cells merges them (row and column spans).
 */

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
export const gridComponents = (horizontal: Rule[], vertical: Rule[], tol: number) => {
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

export const tableFromGrid = (
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
