import type { Run } from "./types";

/**
 * Superscripts and subscripts ("Å²", "CC½", "SO₄²⁻") are small runs raised or lowered against the word they follow.
 * Rows are found page-wide by vertical overlap, so such a run can overlap a neighbouring line (the other column's
 * taller prose, or a table's row above) more than its own, and land there: in a table it became a cell of the wrong
 * row, or a row of its own. A small run touching a larger run on its left (else on its right) belongs to that
 * run's row, whatever it overlaps.
 */

/** A script is at most this share of its base's size. */
const SCRIPT_SIZE = 0.85;
/** Touching: the gap between a script and its base is under this many base font sizes. */
const TOUCH_EM = 0.25;
/** Vertical buckets (points) for finding a run's neighbours without comparing every pair. */
const BUCKET = 24;

const touches = (script: Run, base: Run, side: "left" | "right") => {
  const gap = side === "left" ? script.left - base.right : base.left - script.right;
  return (
    base.fontSize > 0 &&
    script.fontSize <= SCRIPT_SIZE * base.fontSize &&
    gap > -0.5 &&
    gap < TOUCH_EM * base.fontSize &&
    script.bottom > base.top &&
    script.top < base.bottom
  );
};

/** Rows with each script run moved into its base run's row (rows left empty dropped). */
export const attachScripts = (rows: Run[][]): Run[][] => {
  const rowOf = new Map<Run, number>();
  const buckets = new Map<number, Run[]>();
  rows.forEach((row, i) =>
    row.forEach((run) => {
      rowOf.set(run, i);
      for (let b = Math.floor(run.top / BUCKET); b <= Math.floor(run.bottom / BUCKET); b++) {
        const list = buckets.get(b);
        if (list) list.push(run);
        else buckets.set(b, [run]);
      }
    }),
  );
  const near = (run: Run) => {
    const found = new Set<Run>();
    for (let b = Math.floor(run.top / BUCKET); b <= Math.floor(run.bottom / BUCKET); b++) {
      for (const other of buckets.get(b) ?? []) if (other !== run) found.add(other);
    }
    return [...found];
  };
  const moves = new Map<Run, number>();
  for (const [run, own] of rowOf) {
    if (!run.text.trim()) continue;
    const others = near(run);
    const base =
      others.find((b) => b.text.trim() && touches(run, b, "left")) ??
      others.find((b) => b.text.trim() && touches(run, b, "right"));
    const target = base ? rowOf.get(base) : undefined;
    if (target !== undefined && target !== own) moves.set(run, target);
  }
  if (moves.size === 0) return rows;
  const out = rows.map((row) => row.filter((run) => !moves.has(run)));
  for (const [run, target] of moves) out[target]?.push(run);
  return out.filter((row) => row.length > 0);
};
