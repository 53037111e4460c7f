import type { HorizontalLine } from "./figures";
import type { Box } from "./types";

/**
 * Outer edges a table leaves undrawn. A rule drawn across the whole grid (pieces end to end count as one) that
 * reaches past its outermost vertical line, with text beyond it in the grid's rows, bounds a column there: a partly
 * ruled table (the row labels, or the last column, set outside the ruled figures) is one table, not a ruled part
 * and an unruled part. The rules' far end is that column's edge. The text beyond must sit row by row inside the
 * grid's rows, in at least half of them: lines of prose beside a grid do not. The rows ruled up to the old edge go
 * on into the new column, unless that column is ruled at its groups' edges only (row labels over groups of rows,
 * "1991" beside "Men", "Women", "Total"): then each label spans its group.
 */

const TOL = 2;
/** A rule reaching this far past the last vertical line (a column, not a rule's overhang). */
const MIN_REACH = 10;

/** Segments on one height, end to end, as one rule. */
const joinSegments = (h: HorizontalLine[]): HorizontalLine[] => {
  const sorted = [...h].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const out: HorizontalLine[] = [];
  for (const l of sorted) {
    const same = out.find((o) => Math.abs(o.y - l.y) <= TOL && l.x0 <= o.x1 + TOL && l.x1 >= o.x0 - TOL);
    if (same) {
      same.x0 = Math.min(same.x0, l.x0);
      same.x1 = Math.max(same.x1, l.x1);
    } else out.push({ ...l });
  }
  return out;
};

/**
 * Labels left of the grid's first vertical line, each inside one band between the rules drawn that far, in half the
 * bands or more (two at least), with fewer bands than the grid has rows: each band holds a group of rows.
 */
const labelsGroups = (beyond: Box[], rules: number[], ys: number[], from: number, to: number): boolean => {
  const top = ys[0] ?? 0;
  const bottom = ys[ys.length - 1] ?? 0;
  const edges = [...new Set([top, ...rules.filter((y) => y > top + TOL && y < bottom - TOL), bottom])].sort(
    (a, b) => a - b,
  );
  const bands = edges.length - 1;
  if (bands < 2 || bands >= ys.length - 1) return false;
  const bandOf = (p: Box) =>
    edges.findIndex((y, i) => i < bands && p.top >= y - TOL && p.bottom <= (edges[i + 1] ?? y) + TOL);
  if (beyond.some((p) => p.left < from - TOL || p.right > to + TOL || bandOf(p) < 0)) return false;
  return new Set(beyond.map(bandOf)).size >= Math.max(2, bands / 2);
};

export const withRuledEdges = (
  xs: number[],
  h: HorizontalLine[],
  pieces: Box[],
  ys: number[],
): { xs: number[]; h: HorizontalLine[] } => {
  const first = xs[0];
  const last = xs[xs.length - 1];
  if (first === undefined || last === undefined || ys.length < 3) return { xs, h };
  const across = joinSegments(h).filter((l) => l.x0 <= first + TOL && l.x1 >= last - TOL);
  const rowOf = (p: Box) =>
    ys.findIndex((y, i) => i + 1 < ys.length && p.top >= y - TOL && p.bottom <= (ys[i + 1] ?? y) + TOL);
  const beyondOf = (from: number, to: number) =>
    pieces.filter((p) => {
      const y = (p.top + p.bottom) / 2;
      return y > (ys[0] ?? 0) && y < (ys[ys.length - 1] ?? 0) && p.right > from + TOL && p.left < to - TOL;
    });
  const lined = (from: number, to: number) => {
    const beyond = beyondOf(from, to);
    if (beyond.some((p) => p.left < from - TOL || p.right > to + TOL || rowOf(p) < 0)) return false;
    return new Set(beyond.map(rowOf)).size >= Math.max(2, (ys.length - 1) / 2);
  };
  const lefts = across.map((l) => l.x0).filter((x) => x < first - MIN_REACH);
  const rights = across.map((l) => l.x1).filter((x) => x > last + MIN_REACH);
  const left = lefts.length ? Math.min(...lefts) : null;
  const right = rights.length ? Math.max(...rights) : null;
  // Row labels over groups of rows, the column ruled at the groups' edges only: the labels leave the grid's other
  // rules open, so each label spans its group.
  const leftLined = left !== null && lined(left, first);
  const grouped =
    left !== null &&
    !leftLined &&
    labelsGroups(
      beyondOf(left, first),
      across.filter((l) => l.x0 <= left + TOL).map((l) => l.y),
      ys,
      left,
      first,
    );
  const newLeft = grouped || leftLined ? left : null;
  const newRight = right !== null && lined(last, right) ? right : null;
  if (newLeft === null && newRight === null) return { xs, h };
  const extended = h.map((l) => ({
    ...l,
    x0: newLeft !== null && !grouped && l.x0 <= first + TOL ? Math.min(l.x0, newLeft) : l.x0,
    x1: newRight !== null && l.x1 >= last - TOL ? Math.max(l.x1, newRight) : l.x1,
  }));
  return { xs: [...(newLeft === null ? [] : [newLeft]), ...xs, ...(newRight === null ? [] : [newRight])], h: extended };
};
