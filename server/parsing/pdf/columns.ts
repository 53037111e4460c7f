import { wordCount } from "./caseless";
import { joinJustifiedRows } from "./justified";
import { maxOf, median, minOf, type Segment } from "./types";

/**
 * Column detection: a gutter is a vertical strip that only full-width rows cross, between two bodies of prose.
 * Rows that cross it (titles, wide tables and captions) are read whole, between the column stretches.
 */

/** Column gutters are searched in this middle share of the text area, so margins never count as gutters. */
const GUTTER_ZONE = [0.2, 0.8] as const;
const MIN_GUTTER_WIDTH = 6;
const MAX_COLUMN_DEPTH = 2;
/** A table cell's figure ("44.8", "$33,200", "-0.01", "12 %"): a side made of these is a table, not a column. */
const FIGURE_RE = /^[-+−–(]?[$€£]?\d[\d.,\s]*%?\)?[*†‡]*$/;

/** A table's or a figure's caption opening a line ("Table 9 Calculated …", "Fig. 8 Linear plots …"). */
const FLOAT_CAPTION_RE = /^(?:table|tab\.|figure|fig\.)\s*\d{1,3}[a-z]?\b/i;

export type Extent = { left: number; right: number };

/** Most rows cut into three cells or more: a table's rows (padded far apart, as zebra-shaded rows are), no prose. */
const cutIntoCells = (side: Segment[]): boolean => {
  const cells = new Map<number, number>();
  for (const seg of side) cells.set(seg.row, (cells.get(seg.row) ?? 0) + 1);
  return median([...cells.values()]) >= 3;
};

/**
 * The widest strip of the gutter zone that at most a few of the segments cross (a twenty-fifth, at least two), at
 * least MIN_GUTTER_WIDTH wide.
 */
const widestFreeStrip = (narrow: Segment[], extent: Extent): { left: number; right: number } | null => {
  const width = extent.right - extent.left;
  const origin = Math.floor(extent.left);
  const bins = Math.ceil(width) + 2;
  const diff = new Int32Array(bins + 1);
  for (const s of narrow) {
    const a = Math.max(0, Math.floor(s.left) - origin);
    const b = Math.min(bins - 1, Math.ceil(s.right) - origin);
    diff[a] = (diff[a] ?? 0) + 1;
    diff[b + 1] = (diff[b + 1] ?? 0) - 1;
  }
  const allowed = Math.max(2, Math.floor(narrow.length * 0.04));
  const zoneStart = Math.floor(width * GUTTER_ZONE[0]);
  const zoneEnd = Math.ceil(width * GUTTER_ZONE[1]);
  let best: { left: number; right: number } | null = null;
  let coverage = 0;
  let runStart = -1;
  for (let i = 0; i <= zoneEnd; i++) {
    coverage += diff[i] ?? 0;
    const open = i >= zoneStart && coverage <= allowed;
    if (open && runStart < 0) runStart = i;
    if ((!open || i === zoneEnd) && runStart >= 0) {
      const end = open ? i : i - 1;
      if (end - runStart + 1 >= MIN_GUTTER_WIDTH && (!best || end - runStart > best.right - best.left)) {
        best = { left: origin + runStart, right: origin + end };
      }
      runStart = -1;
    }
  }
  return best;
};

/**
 * A vertical strip free of text (bar a few crossings) between two bodies of prose. Cells of a table also leave
 * such strips, so each side must read like prose: many lines that mostly fill their column.
 */
const findGutter = (
  segments: Segment[],
  extent: Extent,
  pageHeight: number,
  depth: number,
  ignoreCentred = false,
): { left: number; right: number } | null => {
  const width = extent.right - extent.left;
  if (width < 100 || segments.length < 10) return null;
  // Full-width rows (titles, wide captions) cross any gutter; they are placed later, so they must not hide it. So
  // may lines centred on the page (a paper's authors and affiliations under its title): they are left out on a
  // second look when the first finds no gutter (a three-column page's middle column is centred too).
  const middle = (extent.left + extent.right) / 2;
  const centred = (s: Segment) => ignoreCentred && Math.abs((s.left + s.right) / 2 - middle) < 0.03 * width;
  const narrow = segments.filter((s) => s.right - s.left < 0.6 * width && !centred(s));
  const best = widestFreeStrip(narrow, extent);
  if (!best) return ignoreCentred ? null : findGutter(segments, extent, pageHeight, depth, true);
  const gutter = best;
  const leftSide = segments.filter((s) => s.right <= gutter.left + 1);
  const rightSide = segments.filter((s) => s.left >= gutter.right - 1);
  // Measured per row, so a table inside a column (narrow cells, full rows) still reads as filling it.
  // A justified line cut at its stretched spaces counts as one segment, not as a row of cells.
  const proseLike = (cut: Segment[], colLeft: number, colRight: number, minSpan = 0.2) => {
    const side = joinJustifiedRows(cut);
    const rows = new Map<number, { left: number; right: number }>();
    for (const s of side) {
      const r = rows.get(s.row);
      rows.set(
        s.row,
        r ? { left: Math.min(r.left, s.left), right: Math.max(r.right, s.right) } : { left: s.left, right: s.right },
      );
    }
    if (rows.size < 5) return false;
    // A table's value columns beside its row labels: figures, or several cells a row, are no prose.
    // Weighed by characters: a prose column beside a chart has many short axis figures but far more words.
    const chars = (segs: Segment[]) => segs.reduce((n, seg) => n + seg.text.length, 0);
    const figures = chars(side.filter((seg) => FIGURE_RE.test(seg.text)));
    if (figures > 0.5 * chars(side) || side.length >= 3 * rows.size) return false;
    if (cutIntoCells(side)) return false;
    const span = maxOf(side.map((s) => s.bottom)) - minOf(side.map((s) => s.top));
    if (span < minSpan * pageHeight) return false;
    // Row labels of a few words a line ("Clarity or relevance") beside a column of sentences: a table's columns.
    // Chinese and Japanese words are counted by their characters, as they are set without spaces.
    const words = new Map<number, number>();
    for (const seg of side) words.set(seg.row, (words.get(seg.row) ?? 0) + wordCount(seg.text));
    if (median([...words.values()]) < 4) return false;
    return median([...rows.values()].map((r) => r.right - r.left)) >= 0.5 * (colRight - colLeft);
  };
  // A side may hold two columns itself (a three-column page): their lines sit on rows of their own, so no row fills
  // the side. It is prose if it splits again into prose columns.
  const sideOk = (side: Segment[], colLeft: number, colRight: number) =>
    proseLike(side, colLeft, colRight) ||
    (depth + 1 < MAX_COLUMN_DEPTH &&
      findGutter(side, { left: colLeft, right: colRight }, pageHeight, depth + 1) !== null);
  // Beside a column of prose, a column holding a table and prose is one too: its prose alone must read as prose (the
  // table's rows share the page's rows with the other column's text).
  const withTable = (side: Segment[], colLeft: number, colRight: number) =>
    proseLike(withoutTableRows(side), colLeft, colRight);
  const leftOk = sideOk(leftSide, extent.left, gutter.left);
  const rightOk = sideOk(rightSide, gutter.right, extent.right);
  const floats = (side: Segment[], colLeft: number, colRight: number) =>
    depth === 0 && besideProse(side, gutter, extent, (s) => proseLike(s, colLeft, colRight, 0));
  const columns =
    (leftOk && rightOk) ||
    (leftOk && (withTable(rightSide, gutter.right, extent.right) || floats(rightSide, gutter.right, extent.right))) ||
    (rightOk && (withTable(leftSide, extent.left, gutter.left) || floats(leftSide, extent.left, gutter.left)));
  if (!columns) return depth === 0 ? besideBox(segments, rightSide, extent, pageHeight, proseLike) : null;
  // Inside a column, lines that cross the candidate are that column's own prose: the "gutter" is only a gap
  // between table cells or figure labels. (At the top level crossing rows are titles and are expected.)
  if (depth > 0) {
    const mid = (gutter.left + gutter.right) / 2;
    const rows = new Set(segments.map((s) => s.row));
    const crossing = new Set(segments.filter((s) => s.left < mid - 2 && s.right > mid + 2).map((s) => s.row));
    if (crossing.size > 0.1 * rows.size) return null;
  }
  return gutter;
};

/**
 * A column of a paper may hold only floats (a table or a chart under its caption) beside the other column's prose:
 * its gutter at the page's middle, and captioned, as a table's label column or a box beside the text is not.
 */
const isFloatColumn = (side: Segment[], gutter: Extent, extent: Extent): boolean =>
  atMiddle(gutter, extent) && side.some((s) => FLOAT_CAPTION_RE.test(s.text));

/**
 * Beside a column of prose, at the page's middle, a column of floats only, or a short column of prose: the last page
 * of a two-column paper, one column down the page, the other stopping after a few lines (LaTeX does not balance them).
 * `shortProse` is the prose test without its minimum height.
 */
const besideProse = (
  side: Segment[],
  gutter: Extent,
  extent: Extent,
  shortProse: (side: Segment[]) => boolean,
): boolean => isFloatColumn(side, gutter, extent) || (atMiddle(gutter, extent) && shortProse(side));

/** A gutter at the middle of the text area, as a two-column page's is. */
const atMiddle = (gutter: Extent, extent: Extent): boolean =>
  Math.abs((gutter.left + gutter.right - extent.left - extent.right) / 2) <= 0.05 * (extent.right - extent.left);

/**
 * A box of facts beside the prose (an infobox): a narrow side of rows holding a label and its value (a value cut in
 * two at most), or a value's wrapped line alone; a few words a row, mostly no figures, down a fifth of the page.
 */
const isSideBox = (side: Segment[], proseWidth: number, pageHeight: number): boolean => {
  const rows = new Map<number, Segment[]>();
  for (const s of side) rows.set(s.row, [...(rows.get(s.row) ?? []), s]);
  const list = [...rows.values()];
  if (list.length < 5 || list.some((segs) => segs.length > 3)) return false;
  if (list.filter((segs) => segs.length >= 2).length < list.length / 3) return false;
  const width = maxOf(side.map((s) => s.right)) - minOf(side.map((s) => s.left));
  if (width > 0.6 * proseWidth) return false;
  const chars = (segs: Segment[]) => segs.reduce((n, seg) => n + seg.text.length, 0);
  if (chars(side.filter((seg) => FIGURE_RE.test(seg.text))) > 0.5 * chars(side)) return false;
  const words = list.map((segs) => segs.reduce((n, seg) => n + (seg.text.match(/\S+/g)?.length ?? 0), 0));
  if (median(words) > 6) return false;
  return maxOf(side.map((s) => s.bottom)) - minOf(side.map((s) => s.top)) >= 0.2 * pageHeight;
};

/**
 * A box beside the prose: the gutter runs from the prose's right edge to the box's left edge. The prose's full lines
 * were left out of the search, so the side left of the box is weighed whole.
 */
const besideBox = (
  segments: Segment[],
  box: Segment[],
  extent: Extent,
  pageHeight: number,
  proseLike: (side: Segment[], colLeft: number, colRight: number) => boolean,
): Extent | null => {
  if (box.length === 0) return null;
  const boxLeft = minOf(box.map((s) => s.left));
  const prose = segments.filter((s) => s.right < boxLeft);
  if (prose.length === 0) return null;
  const proseRight = maxOf(prose.map((s) => s.right));
  if (boxLeft - proseRight < MIN_GUTTER_WIDTH) return null;
  if (segments.some((s) => s.left < proseRight && s.right > boxLeft)) return null;
  if (!proseLike(prose, extent.left, proseRight)) return null;
  return isSideBox(box, proseRight - extent.left, pageHeight) ? { left: proseRight, right: boxLeft } : null;
};

/** A side's segments without its table rows: rows of three cells or more, or of figures mostly. */
const withoutTableRows = (side: Segment[]): Segment[] => {
  const rows = new Map<number, Segment[]>();
  for (const s of side) rows.set(s.row, [...(rows.get(s.row) ?? []), s]);
  const chars = (segs: Segment[]) => segs.reduce((n, seg) => n + seg.text.length, 0);
  const isTableRow = (segs: Segment[]) =>
    segs.length >= 3 || chars(segs.filter((seg) => FIGURE_RE.test(seg.text))) > 0.5 * chars(segs);
  return [...rows.values()].filter((segs) => !isTableRow(segs)).flat();
};

/** Column x-ranges, left to right; recursion finds a second gutter inside a column (three-column layouts). */
export const findColumns = (segments: Segment[], extent: Extent, pageHeight: number, depth: number): Extent[] => {
  const gutter = depth < MAX_COLUMN_DEPTH ? findGutter(segments, extent, pageHeight, depth) : null;
  if (!gutter) return [extent];
  const mid = (gutter.left + gutter.right) / 2;
  const left = { left: extent.left, right: mid };
  const right = { left: mid, right: extent.right };
  return [
    ...findColumns(
      segments.filter((s) => s.right <= mid),
      left,
      pageHeight,
      depth + 1,
    ),
    ...findColumns(
      segments.filter((s) => s.left >= mid),
      right,
      pageHeight,
      depth + 1,
    ),
  ];
};

/**
 * Rows read across the whole page: those with a segment over a gutter, plus rows of a full-width table that happen to
 * fit the columns — a run of rows of narrow cells on both sides, its header row (cells in several columns, next to a
 * spanning row) and short row labels caught between two spanning rows.
 */
export const markSpanningRows = (
  rows: Segment[][],
  columnOf: (s: Segment) => number | null,
  columns: readonly Extent[] = [],
): boolean[] => {
  const spanning = rows.map((row) => row.some((s) => columnOf(s) === null));
  const near = (a: Segment[] | undefined, b: Segment[] | undefined) => {
    if (!a?.[0] || !b?.[0]) return false;
    const gap = minOf(b.map((s) => s.top)) - maxOf(a.map((s) => s.bottom));
    return gap < 1.5 * Math.max(a[0].fontSize, b[0].fontSize);
  };
  // A full-width table whose cells all fit the columns, its gap between two cells where the gutter is: three or more
  // close rows of cells on both sides, none as wide as half its column (as a column's lines of prose are), and the
  // close lines of short cells right above them.
  const widthOf = (s: Segment) => {
    const column = columns[columnOf(s) ?? -1];
    return column ? column.right - column.left : 0;
  };
  const narrowCells = (row: Segment[]) => row.every((s) => s.right - s.left < 0.5 * widthOf(s));
  const headerCells = (row: Segment[]) => narrowCells(row) && row.every((s) => s.text.length <= 40);
  const cellRow = (row: Segment[]) => row.length >= 3 && new Set(row.map(columnOf)).size >= 2 && narrowCells(row);
  for (let i = 0; i < rows.length;) {
    let j = i;
    while (j < rows.length && cellRow(rows[j] ?? []) && (j === i || near(rows[j - 1], rows[j]))) j++;
    if (j - i >= 3) {
      for (let k = i; k < j; k++) spanning[k] = true;
      // Its header's lines above it, short cells whichever side they sit on ("Total Tables", "Dataset"). A header
      // line of cells already read across (one over the gutter) is passed over: the lines above it are header too.
      for (let k = i - 1; k >= 0 && near(rows[k], rows[k + 1]); k--) {
        const row = rows[k] ?? [];
        if (spanning[k] && row.length >= 3) continue;
        if (spanning[k] || !headerCells(row)) break;
        spanning[k] = true;
      }
    }
    i = Math.max(j, i + 1);
  }
  for (let pass = 0; pass < 2; pass++) {
    rows.forEach((row, i) => {
      if (spanning[i]) return;
      const above = spanning[i - 1] === true && near(rows[i - 1], row);
      const below = spanning[i + 1] === true && near(row, rows[i + 1]);
      const columnsUsed = new Set(row.map(columnOf)).size;
      const tableLike = row.length >= 3 && columnsUsed >= 2;
      const shortLabels = row.every((s) => s.text.length <= 30);
      if ((above || below) && tableLike) spanning[i] = true;
      else if (above && below && shortLabels) spanning[i] = true;
    });
  }
  return spanning;
};
