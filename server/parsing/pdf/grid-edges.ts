import type { HorizontalLine } from "./figures";
import type { Box } from "./types";

/**
 * Outer edges a table leaves undrawn. A rule drawn across the whole grid (pieces end to end count as one) that
 * reaches past its outermost vertical line, with text beyond it in the grid's rows, bounds a column there: a partly
 * ruled table (the row labels, or the last column, set outside the ruled figures) is one table, not a ruled part
 * and an unruled part. The rules' far end is that column's edge. The text beyond must sit row by row inside the
 * grid's rows, in at least half of them: lines of prose beside a grid do not. The rows ruled up to the old edge go
 * on into the new column.
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
  const lined = (from: number, to: number) => {
    const beyond = pieces.filter((p) => {
      const y = (p.top + p.bottom) / 2;
      return y > (ys[0] ?? 0) && y < (ys[ys.length - 1] ?? 0) && p.right > from + TOL && p.left < to - TOL;
    });
    if (beyond.some((p) => p.left < from - TOL || p.right > to + TOL || rowOf(p) < 0)) return false;
    return new Set(beyond.map(rowOf)).size >= Math.max(2, (ys.length - 1) / 2);
  };
  const lefts = across.map((l) => l.x0).filter((x) => x < first - MIN_REACH);
  const rights = across.map((l) => l.x1).filter((x) => x > last + MIN_REACH);
  const left = lefts.length ? Math.min(...lefts) : null;
  const right = rights.length ? Math.max(...rights) : null;
  const newLeft = left !== null && lined(left, first) ? left : null;
  const newRight = right !== null && lined(last, right) ? right : null;
  if (newLeft === null && newRight === null) return { xs, h };
  const extended = h.map((l) => ({
    ...l,
    x0: newLeft !== null && l.x0 <= first + TOL ? Math.min(l.x0, newLeft) : l.x0,
    x1: newRight !== null && l.x1 >= last - TOL ? Math.max(l.x1, newRight) : l.x1,
  }));
  return { xs: [...(newLeft === null ? [] : [newLeft]), ...xs, ...(newRight === null ? [] : [newRight])], h: extended };
};
