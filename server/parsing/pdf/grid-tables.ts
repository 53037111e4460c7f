import { bulletPrefixLength, GLYPH_START_RE } from "../classify-text";
import { escapeHtml } from "../table-html";
import type { HorizontalLine, VerticalLine } from "./figures";
import { withRuledEdges } from "./grid-edges";
import { takeOutsideRows, type OutsideRow } from "./grid-outside";
import type { Box, RotatedText, Run } from "./types";

/**
 * Tables drawn as a grid of ruling lines, read from the PDF's own vector lines and the text layer's positions (no
 * pixels, no OCR): row and column boundaries are where the lines are; a boundary not drawn across a cell merges it
 * with its neighbour (row and column spans); text in a cell is joined however many lines it wraps to, text set at
 * an angle (rotated column headers) included, and an empty column stays a column. A single box (a sidebar, a
 * framed note) has no inner lines and is not a table.
 */

export type GridTable = Box & {
  rows: number;
  cols: number;
  /** Cells in reading order; spans in grid units. */
  cells: { row: number; col: number; rowSpan: number; colSpan: number; text: string }[];
  /** A caption or note ruled in with the table, read apart from it (grid-outside.ts). */
  outside?: OutsideRow[];
};

const TOL = 2;
/** A single ruled row is a table too (a Word table of one row) when its cells are drawn apart (oneRowTable). */
const MIN_ROWS = 1;
const MIN_COLS = 2;

/** Positions closer than TOL are one boundary. */
const cluster = (values: number[]): number[] => {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of sorted) {
    const last = out[out.length - 1];
    if (last && v - (last[last.length - 1] ?? v) <= TOL) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((s, v) => s + v, 0) / g.length);
};

type Lines = { h: HorizontalLine[]; v: VerticalLine[] };

const touches = (h: HorizontalLine, v: VerticalLine) =>
  v.x >= h.x0 - TOL && v.x <= h.x1 + TOL && h.y >= v.y0 - TOL && h.y <= v.y1 + TOL;

/** Groups of lines that cross or touch each other: each group is one drawn grid (or one box). */
const groups = ({ h, v }: Lines): Lines[] => {
  const parent = [...h.map((_, i) => i), ...v.map((_, i) => h.length + i)];
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] ?? i] ?? i;
    return i;
  };
  h.forEach((a, i) =>
    v.forEach((b, j) => {
      if (touches(a, b)) parent[find(i)] = find(h.length + j);
    }),
  );
  const byRoot = new Map<number, Lines>();
  const of = (i: number) => {
    const root = find(i);
    let g = byRoot.get(root);
    if (!g) byRoot.set(root, (g = { h: [], v: [] }));
    return g;
  };
  h.forEach((line, i) => of(i).h.push(line));
  v.forEach((line, j) => of(h.length + j).v.push(line));
  return [...byRoot.values()];
};

/** Share of [a, b] that the given segments cover. */
const covered = (segments: [number, number][], a: number, b: number): number => {
  const length = b - a;
  if (length <= 0) return 1;
  const parts = segments
    .map(([s, e]) => [Math.max(s, a), Math.min(e, b)] as [number, number])
    .filter(([s, e]) => e > s)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = a;
  for (const [s, e] of parts) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total / length;
};

type Piece = Box & { text: string; baseline: number; size: number };

const centre = (b: Box) => ({ x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 });

/** Text of a cell: horizontal runs by line (top to bottom, left to right), then any rotated text. */
const cellText = (pieces: Piece[]): string => {
  const sorted = [...pieces].sort((a, b) => a.baseline - b.baseline || a.left - b.left);
  const lines: Piece[][] = [];
  for (const p of sorted) {
    const line = lines[lines.length - 1];
    const last = line?.[line.length - 1];
    if (line && last && Math.abs(p.baseline - last.baseline) <= 0.5 * Math.max(p.size, last.size)) line.push(p);
    else lines.push([p]);
  }
  let text = "";
  for (const line of lines) {
    let row = "";
    let prev: Piece | undefined;
    for (const p of line.sort((a, b) => a.left - b.left)) {
      if (prev && p.left - prev.right > 0.15 * p.size && !row.endsWith(" ")) row += " ";
      row += p.text;
      prev = p;
    }
    row = row.trim();
    if (!row) continue;
    if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(row)) text = text.slice(0, -1) + row;
    else text = text ? `${text} ${row}` : row;
  }
  return text.replace(/\s+/g, " ").trim();
};

/** A cell's figure ("44.8", "$33,200", "-0.01", "12 %", "(3)"). */
const FIGURE_RE = /^[-+−–(]?[$€£]?\d[\d.,\s]*%?\)?[*†‡]*$/;
/** A year is a heading's word ("GNP ($000) / 1995"), not a figure of the body. */
const YEAR_RE = /^(?:1[89]|20)\d\d$/;
/** A heading's unit of thousands ("Number of outlets / (000)"), not a figure in brackets. */
const THOUSANDS_RE = /^\(['’]?000s?\)[*†‡]*$/;

/**
 * A bulleted list in a cell: every line of one column opens with a bullet glyph and its words ("• Cell with",
 * "• A", "• Bullet list"). Its lines are one cell's items, not rows, whatever the next cell holds beside them (a
 * numbered list, lines of a paragraph). Numbers are left out: a table's rows may open with them.
 */
const bulletedColumn = (bands: Piece[][], columnOf: (p: Piece) => number): boolean => {
  const columns = new Set(bands.flat().map(columnOf));
  return [...columns].some((c) =>
    bands.every((band) => {
      const text = band
        .filter((p) => columnOf(p) === c)
        .sort((a, b) => a.left - b.left)
        .map((p) => p.text.trim())
        .join(" ");
      return GLYPH_START_RE.test(text) && bulletPrefixLength(text) > 0;
    }),
  );
};

/**
 * Row boundaries the drawing leaves out: many tables rule every few rows only (or none inside the body). A grid row
 * whose cells hold text on the same baselines, in most columns, is that many rows; a cell that wraps while the
 * others do not keeps its lines together. The header (the first ruled row with text in two columns, none across
 * them) is not cut when it holds no figures: its lines are column headings wrapped inside their ruled cells
 * ("Schools identified / under NCLB / (n = 469)", "GNP ($000) / 1995"), one heading each.
 */
const unruledRows = (ys: number[], xs: number[], pieces: Piece[]): number[] => {
  const extra: number[] = [];
  const columnOf = (p: Piece) =>
    xs.findIndex((x, i) => i + 1 < xs.length && centre(p).x >= x && centre(p).x < (xs[i + 1] ?? x));
  let headerSeen = false;
  for (let r = 0; r + 1 < ys.length; r++) {
    const top = ys[r] ?? 0;
    const bottom = ys[r + 1] ?? 0;
    const inside = pieces.filter((p) => {
      const { x, y } = centre(p);
      return y > top && y < bottom && x > (xs[0] ?? 0) && x < (xs[xs.length - 1] ?? 0) && p.bottom - p.top < 3 * p.size;
    });
    const sorted = [...inside].sort((a, b) => a.baseline - b.baseline);
    const bands: Piece[][] = [];
    for (const p of sorted) {
      const band = bands[bands.length - 1];
      const last = band?.[band.length - 1];
      if (band && last && p.baseline - last.baseline <= 0.5 * Math.max(p.size, last.size)) band.push(p);
      else bands.push([p]);
    }
    const cutAt = (b: number) => {
      const above = Math.max(...(bands[b - 1] ?? []).map((p) => p.bottom));
      const below = Math.min(...(bands[b] ?? []).map((p) => p.top));
      extra.push((above + below) / 2);
    };
    // A caption or a heading over several columns ruled in with the header is a row of its own, above it.
    const crosses = (band: Piece[]) =>
      band.some((p) => xs.slice(1, -1).some((x) => p.left < x - TOL && p.right > x + TOL));
    const plain = bands.filter((band) => !crosses(band)).flat();
    if (!headerSeen && new Set(plain.map(columnOf)).size >= 2) {
      headerSeen = true;
      // Per line and column: a run may hold part of a cell only ("(", "n =", "469)").
      const cellTexts = bands.flatMap((band) =>
        [...new Set(band.map(columnOf))].map((c) =>
          band
            .filter((p) => columnOf(p) === c)
            .sort((a, b) => a.left - b.left)
            .map((p) => p.text.trim())
            .join(" "),
        ),
      );
      if (!cellTexts.some((text) => FIGURE_RE.test(text) && !YEAR_RE.test(text) && !THOUSANDS_RE.test(text))) {
        for (let b = 1; b < bands.length; b++) if (crosses(bands[b - 1] ?? []) !== crosses(bands[b] ?? [])) cutAt(b);
        continue;
      }
    }
    if (inside.length < 4 || bands.length < 2 || bulletedColumn(bands, columnOf)) continue;
    const perColumn = new Map<number, Set<number>>();
    bands.forEach((band, b) => {
      for (const p of band) {
        const c = columnOf(p);
        const set = perColumn.get(c) ?? new Set<number>();
        set.add(b);
        perColumn.set(c, set);
      }
    });
    const withText = [...perColumn.values()];
    const full = withText.filter((set) => set.size === bands.length).length;
    if (withText.length < 2 || full < 0.6 * withText.length) continue;
    for (let b = 1; b < bands.length; b++) cutAt(b);
  }
  return extra;
};

/** The box a group of lines covers. */
const extent = ({ h, v }: Lines): Box => ({
  left: Math.min(...h.map((l) => l.x0), ...v.map((l) => l.x)),
  right: Math.max(...h.map((l) => l.x1), ...v.map((l) => l.x)),
  top: Math.min(...h.map((l) => l.y), ...v.map((l) => l.y0)),
  bottom: Math.max(...h.map((l) => l.y), ...v.map((l) => l.y1)),
});

/** `other` lies over or under `row` across most of their widths, no further away than the row is high. */
const stacked = (row: Box, other: Box) => {
  const overlap = Math.min(row.right, other.right) - Math.max(row.left, other.left);
  const gap = Math.max(other.top - row.bottom, row.top - other.bottom);
  return overlap >= 0.5 * Math.min(row.right - row.left, other.right - other.left) && gap <= row.bottom - row.top;
};

/**
 * One ruled row is a table when each of its cells holds text and a drawn line parts every two of them: a box with
 * its text split by undrawn boundaries only, or with an empty cell (a form's label and its blank field), is not.
 */
const oneRowTable = (cells: GridTable["cells"], drawnAfter: (col: number) => boolean) =>
  cells.every((c) => c.text) && cells.slice(0, -1).every((c) => drawnAfter(c.col + c.colSpan - 1));

const gridOf = (drawn: Lines, pieces: Piece[]): (GridTable & { taken: Set<Piece> }) | null => {
  const drawnYs = cluster(drawn.h.map((l) => l.y));
  const drawnXs = cluster(drawn.v.map((l) => l.x));
  if (drawnYs.length < 2 || drawnXs.length < MIN_COLS + 1) return null;
  const { xs, h } = withRuledEdges(drawnXs, drawn.h, pieces, drawnYs);
  const lines: Lines = { h, v: drawn.v };
  const unruled = unruledRows(drawnYs, xs, pieces);
  const ys = [...drawnYs, ...unruled].sort((a, b) => a - b);
  if (ys.length < MIN_ROWS + 1) return null;
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  const hAt = (y: number) => lines.h.filter((l) => Math.abs(l.y - y) <= TOL).map((l): [number, number] => [l.x0, l.x1]);
  const vAt = (x: number) => lines.v.filter((l) => Math.abs(l.x - x) <= TOL).map((l): [number, number] => [l.y0, l.y1]);
  // A boundary counts as drawn along a cell side when lines cover most of it.
  const drawnRight = (r: number, c: number) =>
    covered(vAt(xs[c + 1] ?? 0), (ys[r] ?? 0) + TOL, (ys[r + 1] ?? 0) - TOL) >= 0.4;
  const virtual = new Set(unruled);
  const drawnBelow = (r: number, c: number) =>
    virtual.has(ys[r + 1] ?? NaN) || covered(hAt(ys[r + 1] ?? 0), (xs[c] ?? 0) + TOL, (xs[c + 1] ?? 0) - TOL) >= 0.4;
  // A boundary left undrawn inside a row (table styles that rule the header row's outline only) still separates
  // cells when text sits on both sides of it and none crosses it; a heading over two columns ("Counts") has
  // text on one side only, or across.
  const splitsText = (r: number, from: number, boundary: number, to: number) => {
    const x = xs[boundary] ?? 0;
    const inRow = pieces.filter((p) => {
      const { x: cx, y } = centre(p);
      return y > (ys[r] ?? 0) && y < (ys[r + 1] ?? 0) && cx > (xs[from] ?? 0) && cx < (xs[to] ?? 0);
    });
    if (inRow.some((p) => p.left < x - TOL && p.right > x + TOL)) return false;
    return inRow.some((p) => centre(p).x < x) && inRow.some((p) => centre(p).x > x);
  };
  const owner: number[][] = Array.from({ length: rows }, () => Array<number>(cols).fill(-1));
  const spans: { row: number; col: number; rowSpan: number; colSpan: number }[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if ((owner[r]?.[c] ?? -1) >= 0) continue;
      let colSpan = 1;
      while (
        c + colSpan < cols &&
        !drawnRight(r, c + colSpan - 1) &&
        (owner[r]?.[c + colSpan] ?? -1) < 0 &&
        !splitsText(r, c, c + colSpan, c + colSpan + 1)
      )
        colSpan++;
      // Down only while the boundary is missing under the whole width of the cell.
      let rowSpan = 1;
      const open = (row: number) => {
        for (let j = c; j < c + colSpan; j++) if (drawnBelow(row, j) || (owner[row + 1]?.[j] ?? -1) >= 0) return false;
        return true;
      };
      while (r + rowSpan < rows && open(r + rowSpan - 1)) rowSpan++;
      const id = spans.length;
      spans.push({ row: r, col: c, rowSpan, colSpan });
      for (let i = r; i < r + rowSpan; i++) {
        const row = owner[i];
        if (row) for (let j = c; j < c + colSpan; j++) row[j] = id;
      }
    }
  }
  // Every cell merged into one: a framed box, not a table.
  if (spans.length < 2 || (rows > 1 && spans.every((s) => s.rowSpan === rows || s.colSpan === cols))) return null;
  const box = { left: xs[0] ?? 0, right: xs[cols] ?? 0, top: ys[0] ?? 0, bottom: ys[rows] ?? 0 };
  const byCell = new Map<number, Piece[]>();
  const taken = new Set<Piece>();
  const index = (values: number[], v: number) =>
    values.findIndex((b, i) => i < values.length - 1 && v >= b && v < (values[i + 1] ?? b));
  for (const p of pieces) {
    const { x, y } = centre(p);
    const r = index(ys, y);
    const c = index(xs, x);
    if (r < 0 || c < 0) continue;
    const id = owner[r]?.[c] ?? -1;
    if (id < 0) continue;
    taken.add(p);
    const list = byCell.get(id);
    if (list) list.push(p);
    else byCell.set(id, [p]);
  }
  const cells = spans.map((s, id) => ({ ...s, text: cellText(byCell.get(id) ?? []) }));
  // A grid around a single line of text, or with nearly every cell empty, is a drawing, not a table.
  const filled = cells.filter((c) => c.text).length;
  if (filled < 2) return null;
  if (rows === 1 && !oneRowTable(cells, (c) => drawnRight(0, c))) return null;
  // A chart's gridlines: a large grid with a few labels scattered over it.
  if (cells.length >= 20 && filled < 0.3 * cells.length) return null;
  const { table, outside } = takeOutsideRows({ ...box, rows, cols, cells }, ys);
  return { ...table, outside, taken };
};

/** Words a cell of a data table holds at most ("9:00–17:00", "Weekdays"), not paragraphs or lists set in a grid. */
const SHORT_CELL_WORDS = 8;

const isShort = (text: string) => text.split(/\s+/).filter(Boolean).length <= SHORT_CELL_WORDS;

/**
 * Short cells: a data table, however small, not a page laid out in a ruled grid. Every cell is short, or the table
 * has three columns or more, a header row of short cells and its long cells in one column only (a parameters table's
 * "Description": "url | string | yes | HTTPS URL that receives the events. Plain HTTP is rejected…").
 */
const shortCells = (table: GridTable): boolean => {
  const long = table.cells.filter((c) => !isShort(c.text));
  if (long.length === 0) return true;
  const headerShort = table.cells.every((c) => c.row > 0 || isShort(c.text));
  return table.cols >= 3 && headerShort && new Set(long.map((c) => c.col)).size === 1;
};

/**
 * Ruled tables of one page. Returns the tables and the runs (horizontal and rotated) they took; those leave the
 * page's running text.
 */
export const findGridTables = ({
  runs,
  rotated,
  horizontal,
  vertical,
  shortCellsOnly = false,
}: {
  runs: Run[];
  rotated: RotatedText[];
  horizontal: HorizontalLine[];
  vertical: VerticalLine[];
  /** Keep only grids of short cells (shortCells): on a page whose text lines up in no table. */
  shortCellsOnly?: boolean;
}): { tables: GridTable[]; takenRuns: Set<Run>; takenRotated: Set<RotatedText> } => {
  const tables: GridTable[] = [];
  const takenRuns = new Set<Run>();
  const takenRotated = new Set<RotatedText>();
  if (horizontal.length < MIN_ROWS + 1 || vertical.length < MIN_COLS + 1) return { tables, takenRuns, takenRotated };
  const pieces = new Map<Piece, Run | RotatedText>();
  for (const r of runs) pieces.set({ ...r, size: r.fontSize }, r);
  // Rotated text has no baseline across the cell; its top-to-bottom order stands in for it.
  for (const r of rotated) pieces.set({ ...r, baseline: r.top, size: r.fontSize }, r);
  const drawnGroups = groups({ h: horizontal, v: vertical });
  const extents = drawnGroups.map(extent);
  for (const [i, group] of drawnGroups.entries()) {
    const grid = gridOf(group, [...pieces.keys()]);
    if (!grid || (shortCellsOnly && !shortCells(grid))) continue;
    // A ruled row right over or under another drawn grid is that table's header or total row, read with it.
    if (grid.rows === 1 && extents.some((other, j) => j !== i && stacked(extents[i]!, other))) continue;
    const { taken, ...table } = grid;
    tables.push(table);
    for (const p of taken) {
      const source = pieces.get(p);
      if (!source) continue;
      if ("baseline" in source) takenRuns.add(source);
      else takenRotated.add(source);
    }
  }
  return { tables, takenRuns, takenRotated };
};

/** The table as text rows (cells joined by " | "... as the other table parsers: tab-free, space-separated). */
export const gridRows = (table: GridTable): string[][] => {
  const rows: string[][] = Array.from({ length: table.rows }, () => []);
  for (const cell of table.cells) rows[cell.row]?.push(cell.text);
  return rows;
};

/**
 * Rows that make up the header: the first row, and when it groups columns under one heading ("Counts" over "2014"
 * and "2015"), the rows its cells span down to, which hold the sub-headings.
 */
export const headerRowCount = (table: GridTable): number => {
  const first = table.cells.filter((c) => c.row === 0);
  if (!first.some((c) => c.colSpan > 1)) return 1;
  return Math.max(1, Math.min(table.rows - 1, Math.max(...first.map((c) => c.rowSpan))));
};

/** HTML with spans; the header rows (headerRowCount) are th cells. */
export const gridHtml = (table: GridTable): string => {
  const rows: string[] = [];
  const headerRows = headerRowCount(table);
  for (let r = 0; r < table.rows; r++) {
    const tag = r < headerRows ? "th" : "td";
    const cells = table.cells
      .filter((c) => c.row === r)
      .map((c) => {
        const attrs = `${c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : ""}${c.colSpan > 1 ? ` colspan="${c.colSpan}"` : ""}`;
        return `<${tag}${attrs}>${escapeHtml(c.text)}</${tag}>`;
      });
    rows.push(`<tr>${cells.join("")}</tr>`);
  }
  return `<table>${rows.join("")}</table>`;
};
