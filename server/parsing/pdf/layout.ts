import { MARKER_RE } from "../classify-text";
import { findColumns, markSpanningRows } from "./columns";
import { numberInReadingOrder, readsRightToLeft, rightToLeftOrder } from "./direction";
import { attachScripts } from "./script-runs";
import { maxOf, median, minOf, union, type Line, type Run, type Segment } from "./types";

/** A column's horizontal extent. */
type Extent = { left: number; right: number };

/**
 * Reading order of a page's horizontal text: runs are grouped into visual rows, rows into segments (split at wide
 * gaps), segments into column regions (a detected gutter), and regions into lines, in the order a person reads.
 */

/** A gap wider than this many font sizes between two runs of a row separates segments (table cells, columns). */
const SEGMENT_GAP_EM = 0.9;
/** The narrowest gap between two columns' lines that splits a segment over a gutter. */
const MIN_GUTTER_GAP = 6;

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** Printers that fake bold by drawing a run twice, slightly offset, would otherwise double the text. */
const dropDuplicates = (runs: Run[]): Run[] => {
  const seen = new Set<string>();
  return runs.filter((r) => {
    const key = `${r.text}|${Math.round(r.left)}|${Math.round(r.baseline)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** Sizes this close (a share of the run's) are one line's text, not a script beside it. */
const SAME_SIZE = 0.15;

/**
 * A run joins a row only beside the row's runs of its own size, when it has any: overlapping half their height too.
 * A larger line of the other column widens a row's band over the next line of a smaller table; that line's runs
 * overlap the band but not their own row's, and start a row of their own. A script touching its larger base (a
 * subscript on a line with a superscript of its size) stays on the base's line.
 */
const besideItsLikes = (run: Run, runs: Run[]): boolean => {
  const height = run.bottom - run.top;
  const over = (r: Run) => overlap(run.top, run.bottom, r.top, r.bottom) >= 0.5 * Math.min(height, r.bottom - r.top);
  const likes = runs.filter((r) => Math.abs(r.fontSize - run.fontSize) <= SAME_SIZE * run.fontSize);
  if (likes.length === 0 || likes.some(over)) return true;
  return runs.some(
    (r) =>
      run.fontSize <= (1 - SAME_SIZE) * r.fontSize &&
      over(r) &&
      Math.max(r.left - run.right, run.left - r.right) < 0.25 * r.fontSize,
  );
};

/**
 * Text four times the size of other text or more, two of the smaller text's ems or more away from it, is no line of
 * that text: a figure's giant lettering (a 99 pt "A" drawn as text) whose band spans several lines of the next column
 * would make the heading there ("References") one line with the glyph and whatever text sits beside it.
 */
const dwarfedApart = (run: Run, row: Run[]): boolean =>
  row.every((r) => {
    const small = Math.min(run.fontSize, r.fontSize);
    const gap = Math.max(r.left - run.right, run.left - r.right);
    return small <= 0.25 * Math.max(run.fontSize, r.fontSize) && gap >= 2 * small;
  });

/**
 * Rows: runs whose boxes overlap vertically by half the smaller height. The row's band is its largest run's box, so
 * superscripts and subscripts join their line instead of forming rows of their own.
 */
const groupRows = (runs: Run[]): Run[][] => {
  const sorted = [...runs].sort((a, b) => (a.top + a.bottom) / 2 - (b.top + b.bottom) / 2);
  const rows: { runs: Run[]; top: number; bottom: number; size: number }[] = [];
  for (const run of sorted) {
    const height = run.bottom - run.top;
    // Only the last few rows can match: the runs are sorted by their vertical centre.
    let target: (typeof rows)[number] | undefined;
    for (let i = rows.length - 1; i >= Math.max(0, rows.length - 3); i--) {
      const row = rows[i];
      if (!row) continue;
      const shared = overlap(run.top, run.bottom, row.top, row.bottom);
      const joins = shared >= 0.5 * Math.min(height, row.bottom - row.top) && besideItsLikes(run, row.runs);
      if (joins && !dwarfedApart(run, row.runs)) {
        target = row;
        break;
      }
    }
    if (!target) {
      rows.push({ runs: [run], top: run.top, bottom: run.bottom, size: run.fontSize });
      continue;
    }
    target.runs.push(run);
    if (run.fontSize > target.size) {
      target.size = run.fontSize;
      target.top = run.top;
      target.bottom = run.bottom;
    }
  }
  return rows.sort((a, b) => a.top - b.top).map((r) => r.runs);
};

/** The run of the font and size (to a tenth) that sets the most characters. */
const dominant = (runs: Run[]): Run | undefined => {
  if (runs.length === 1) return runs[0];
  let best: Run | undefined;
  let bestLength = -1;
  const byFont = new Map<string, number>();
  for (const r of runs) {
    const key = `${r.fontName}|${Math.round(r.fontSize * 10)}`;
    const total = (byFont.get(key) ?? 0) + r.text.length;
    byFont.set(key, total);
    if (total > bestLength) {
      bestLength = total;
      best = r;
    }
  }
  return best;
};

/** What a footnote mark is made of: digits ("1", "2,3") or the reference symbols. */
const FOOTNOTE_MARK_RE = /^[\d,*∗†‡§¶]{1,6}$/;

/** A footnote mark set as a superscript next to a run: raised by a fifth of its size and smaller. */
const isRaisedMark = (mark: Run, beside: Run) =>
  FOOTNOTE_MARK_RE.test(mark.text.trim()) &&
  beside.baseline - mark.baseline >= 0.2 * beside.fontSize &&
  mark.fontSize <= 0.85 * beside.fontSize;

/**
 * A footnote mark touching a word is a token of its own: "Resource Center1" reads "Resource Center 1", so the word
 * is found by search, and so is the mark's footnote ("1 The center opens …"). Only after a word of three letters or
 * more: after a variable, a unit or a number a raised digit is an exponent ("x2", "cm2", "10-3").
 */
const separatesMark = (prev: Run, run: Run) =>
  (isRaisedMark(run, prev) && /\p{L}{3}[.,;:)]?$/u.test(prev.text.trimEnd())) ||
  (isRaisedMark(prev, run) && /^\p{L}/u.test(run.text));

/**
 * Concatenate runs of one line (given left to right), adding a space where the gap is wider than a thin space; a
 * line of Hebrew or Arabic reads from its right end (direction.ts).
 */
export const joinRuns = (runs: Run[]): string => {
  const rtl = readsRightToLeft(runs.map((r) => r.text));
  let text = "";
  let prev: Run | undefined;
  const ordered = rtl ? rightToLeftOrder(runs) : runs;
  ordered.forEach((run, i) => {
    if (prev) {
      // Either way round: a right-to-left line's pieces follow one another leftwards, a Latin phrase's rightwards.
      const gap = Math.max(run.left - prev.right, prev.left - run.right);
      const needsSpace =
        (gap > 0.15 * Math.min(run.fontSize, prev.fontSize) || separatesMark(prev, run)) &&
        !text.endsWith(" ") &&
        !run.text.startsWith(" ");
      if (needsSpace) text += " ";
    }
    // A right-to-left line's runs come reordered: a space a run ended with in the file is no longer after it.
    text += rtl ? numberInReadingOrder(run.text.trim(), text, ordered[i + 1]?.text ?? "") : run.text;
    prev = run;
  });
  return text.replace(/\s+/g, " ").trim();
};

/** A segment of a row's runs (left to right), or null when they hold no text. */
const toSegment = (runs: Run[], row: number): Segment | null => {
  const text = joinRuns(runs);
  if (!text) return null;
  const { left, top, right, bottom } = union(runs);
  const font = dominant(runs);
  return { left, top, right, bottom, fontSize: font?.fontSize ?? 0, fontName: font?.fontName ?? "", text, runs, row };
};

/**
 * An outline list's number standing alone: "3.1.", "1.2.3" (LibreOffice's and Word's multi-level lists). Not "3.1":
 * a decimal in a table's first column.
 */
const OUTLINE_MARKER_RE = /^\d{1,2}(?:\.\d{1,2})+\.$|^\d{1,2}(?:\.\d{1,2}){2,}$/;
const isMarker = (text: string) => MARKER_RE.test(text) || OUTLINE_MARKER_RE.test(text);

const toSegments = (rows: Run[][]): Segment[] => {
  const segments: Segment[] = [];
  rows.forEach((row, rowIndex) => {
    const sorted = [...row].sort((a, b) => a.left - b.left);
    let current: Run[] = [];
    const flush = () => {
      if (current.length === 0) return;
      const segment = toSegment(current, rowIndex);
      if (segment) segments.push(segment);
      current = [];
    };
    for (const run of sorted) {
      const last = current[current.length - 1];
      const wide = last && run.left - last.right > SEGMENT_GAP_EM * Math.max(4, run.fontSize, last.fontSize);
      // A list marker on its own ("•", "1.", "(a)", "3.1."): the gap after it is the list's indent, not a cell
      // border. Not before a line of Hebrew or Arabic: their marker stands right of its item, so one left of such a
      // line is the end of another item (of the column to its left).
      const marker = current.length === 1 && !!last && isMarker(last.text.trim()) && !readsRightToLeft([run.text]);
      if (wide && !marker) flush();
      current.push(run);
    }
    flush();
  });
  return segments;
};

export const toLine = (segments: Segment[]): Line => {
  const sorted = [...segments].sort((a, b) => a.left - b.left);
  const runs = sorted.flatMap((s) => s.runs);
  const { left, top, right, bottom } = union(sorted);
  const font = dominant(runs);
  return {
    left,
    top,
    right,
    bottom,
    fontSize: font?.fontSize ?? 0,
    fontName: font?.fontName ?? "",
    text: (readsRightToLeft(sorted.map((s) => s.text)) ? [...sorted].reverse() : sorted).map((s) => s.text).join(" "),
    segments: sorted,
    baseline: median(runs.map((r) => r.baseline)),
  };
};

const extentOf = (segments: Segment[]) => ({
  left: minOf(segments.map((s) => s.left)),
  right: maxOf(segments.map((s) => s.right)),
});

/**
 * A segment over a gutter whose runs leave a gap there is two columns' lines side by side: a gutter narrower than the
 * gap that separates segments (a 14 pt heading beside a 10 pt line, 10 pt apart) joins them before the columns are
 * known. The gap must be wider than a word space (half an em, at least the narrowest gutter), so a title's words that
 * happen to straddle the gutter stay together.
 */
const splitAtGutters = (segments: Segment[], columns: Extent[]): Segment[] => {
  const boundaries = columns.slice(0, -1).map((c) => c.right);
  if (boundaries.length === 0) return segments;
  return segments.flatMap((segment) => {
    const runs = [...segment.runs].sort((a, b) => a.left - b.left);
    const pieces: Run[][] = [[]];
    runs.forEach((run, i) => {
      const prev = runs[i - 1];
      const gap = prev ? run.left - prev.right : 0;
      const wide = gap >= Math.max(MIN_GUTTER_GAP, 0.5 * Math.min(run.fontSize, prev?.fontSize ?? 0));
      if (prev && wide && boundaries.some((b) => prev.right <= b && run.left >= b)) pieces.push([]);
      pieces[pieces.length - 1]?.push(run);
    });
    if (pieces.length === 1) return [segment];
    return pieces.flatMap((p) => toSegment(p, segment.row) ?? []);
  });
};

/**
 * Whether most of a page's lines (segments holding letters) read right to left: a page set in Hebrew or Arabic, not
 * a Latin page quoting a Hebrew paragraph.
 */
const readsRightToLeftMostly = (segments: readonly Segment[]): boolean => {
  const lettered = segments.filter((s) => /\p{L}/u.test(s.text));
  return lettered.filter((s) => readsRightToLeft([s.text])).length > lettered.length / 2;
};

/** Lines of one region (a column between two full-width rows, or a full-width stretch), top to bottom. */
export type Region = { lines: Line[]; column: number | null };

export const layoutPage = ({ runs, pageHeight }: { runs: Run[]; pageHeight: number }): Region[] => {
  const rows = attachScripts(groupRows(dropDuplicates(runs)));
  const rawSegments = toSegments(rows);
  if (rawSegments.length === 0) return [];
  const columns = findColumns(rawSegments, extentOf(rawSegments), pageHeight, 0);
  const segments = splitAtGutters(rawSegments, columns);
  const byRow = new Map<number, Segment[]>();
  for (const s of segments) {
    const list = byRow.get(s.row);
    if (list) list.push(s);
    else byRow.set(s.row, [s]);
  }
  if (columns.length === 1) {
    return [{ lines: [...byRow.values()].map(toLine), column: null }];
  }

  // A row with a segment across a gutter (title, full-width figure caption) is read whole, and ends the column
  // stretch above it: everything in the columns above is read first, left column then right.
  const columnOf = (s: Segment): number | null => {
    const i = columns.findIndex((c) => s.left >= c.left - 2 && s.right <= c.right + 2);
    return i >= 0 ? i : null;
  };
  const regions: Region[] = [];
  let stretch: Segment[][] = columns.map(() => []);
  // A page of Hebrew or Arabic reads its columns from the right.
  const order = readsRightToLeftMostly(segments)
    ? columns.map((_, i) => columns.length - 1 - i)
    : columns.map((_, i) => i);
  const flushStretch = () => {
    for (const column of order) {
      const lines = groupLines(stretch[column] ?? []);
      if (lines.length > 0) regions.push({ lines, column });
    }
    stretch = columns.map(() => []);
  };
  const rowList = [...byRow.values()];
  const spanning = markSpanningRows(rowList, columnOf, columns);
  rowList.forEach((rowSegments, index) => {
    const placed = rowSegments.map(columnOf);
    if (spanning[index]) {
      flushStretch();
      regions.push({ lines: [toLine(rowSegments)], column: null });
      return;
    }
    rowSegments.forEach((s, i) => stretch[placed[i] ?? 0]?.push(s));
  });
  flushStretch();
  return mergeFullWidth(regions);
};

const groupLines = (segments: Segment[]): Line[] => {
  const byRow = new Map<number, Segment[]>();
  for (const s of segments) {
    const list = byRow.get(s.row);
    if (list) list.push(s);
    else byRow.set(s.row, [s]);
  }
  return [...byRow.entries()].sort((a, b) => a[0] - b[0]).map(([, segs]) => toLine(segs));
};

/** Consecutive full-width rows form one region, so a two-line title stays one block. */
const mergeFullWidth = (regions: Region[]): Region[] => {
  const out: Region[] = [];
  for (const region of regions) {
    const last = out[out.length - 1];
    if (last && last.column === null && region.column === null) last.lines.push(...region.lines);
    else out.push({ ...region, lines: [...region.lines] });
  }
  return out;
};
