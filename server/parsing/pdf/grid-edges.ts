import type { HorizontalLine } from "./figures";
import type { Box } from "./types";

/**
 * Outer edges a table leaves undrawn. Rules drawn across the whole grid that reach past its outermost vertical line,
 * with text in the part beyond, bound a column there: a partly ruled table (the row labels, or the last column, set
 * outside the ruled figures) is one table, not a ruled part and an unruled part. The rules' far end is that
 * column's edge.
 */

const TOL = 2;
/** A rule reaching this far past the last vertical line (a column, not a rule's overhang). */
const MIN_REACH = 10;

export const withRuledEdges = (xs: number[], h: HorizontalLine[], pieces: Box[], top: number, bottom: number) => {
  const first = xs[0];
  const last = xs[xs.length - 1];
  if (first === undefined || last === undefined) return xs;
  const across = h.filter((l) => l.x0 <= first + TOL && l.x1 >= last - TOL);
  const inside = (p: Box, from: number, to: number) => {
    const y = (p.top + p.bottom) / 2;
    return y > top && y < bottom && p.left >= from - TOL && p.right <= to + TOL;
  };
  const edge = (ends: number[], pick: (values: number[]) => number, from: (e: number) => [number, number]) => {
    if (ends.length < 2) return null;
    const e = pick(ends);
    const [a, b] = from(e);
    return pieces.filter((p) => inside(p, a, b)).length >= 2 ? e : null;
  };
  const left = edge(
    across.map((l) => l.x0).filter((x) => x < first - MIN_REACH),
    (v) => Math.min(...v),
    (e) => [e, first],
  );
  const right = edge(
    across.map((l) => l.x1).filter((x) => x > last + MIN_REACH),
    (v) => Math.max(...v),
    (e) => [last, e],
  );
  return [...(left === null ? [] : [left]), ...xs, ...(right === null ? [] : [right])];
};
