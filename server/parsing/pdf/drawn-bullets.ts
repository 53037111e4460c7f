import { isBulleted } from "../classify-text";
import type { Box, Run } from "./types";

/**
 * Bullets drawn instead of typed: a browser printing a page (Chrome's `list-style: disc`, `square`) and some layout
 * programs paint a list's bullet as a small filled shape, with no glyph in the text layer. Such a shape, at most
 * about half the text's size, at the height of a line's letters and left of the line's first word, with no text
 * just before it on its row (a dot between words is a separator), is that line's bullet: it becomes a "•" run, so the
 * line reads as a list item like a line with a typed bullet.
 */

const BULLET = "•";
/** The mark's size against the text's: a bullet is a fraction of the letters' height, a dot of punctuation less. */
const MIN_SHARE = 0.15;
const MAX_SHARE = 0.6;
/** How far right of the mark the item's text may start (the list's indent), in ems. */
const MAX_GAP_EM = 2.5;

const sameBox = (a: Box, b: Box) =>
  Math.abs(a.left - b.left) < 0.5 &&
  Math.abs(a.top - b.top) < 0.5 &&
  Math.abs(a.right - b.right) < 0.5 &&
  Math.abs(a.bottom - b.bottom) < 0.5;

/** The run a mark stands before: its letters' band holds the mark's middle, and it starts right of the mark. */
const textAfter = (mark: Box, runs: readonly Run[]): Run | null => {
  const middle = (mark.top + mark.bottom) / 2;
  const size = Math.max(mark.right - mark.left, mark.bottom - mark.top);
  let best: Run | null = null;
  for (const run of runs) {
    if (!run.text.trim()) continue;
    const em = run.fontSize;
    if (middle > run.baseline || middle < run.baseline - 0.8 * em) continue;
    if (size < MIN_SHARE * em || size > MAX_SHARE * em) continue;
    const gap = run.left - mark.right;
    if (gap < -0.5 || gap > MAX_GAP_EM * em) continue;
    if (!best || run.left < best.left) best = run;
  }
  return best;
};

/** Text on the mark's row that ends just before it or covers it: the mark sits inside a line, not at its start. */
const textBefore = (mark: Box, after: Run, runs: readonly Run[]): boolean =>
  runs.some(
    (run) =>
      run !== after &&
      run.text.trim() !== "" &&
      Math.abs(run.baseline - after.baseline) < 0.5 * after.fontSize &&
      run.left < mark.left &&
      run.right > mark.left - after.fontSize,
  );

/** The words right of the mark on its row. */
const rowTextAfter = (mark: Box, after: Run, runs: readonly Run[]): string =>
  runs
    .filter((run) => Math.abs(run.baseline - after.baseline) < 0.3 * after.fontSize && run.left >= mark.right)
    .map((run) => run.text)
    .join(" ");

const besideOnRow = (mark: Box, other: Box, em: number): boolean =>
  Math.abs((mark.top + mark.bottom) / 2 - (other.top + other.bottom) / 2) < 0.3 * em &&
  Math.abs(mark.left - other.left) > 2 * em;

export const withDrawnBullets = (runs: readonly Run[], marks: readonly Box[]): Run[] => {
  const bullets = new Map<Run, Run>();
  const seen: Box[] = [];
  for (const mark of marks) {
    // A shape filled and then stroked, or painted twice, is one mark.
    if (seen.some((b) => sameBox(b, mark))) continue;
    seen.push(mark);
    const after = textAfter(mark, runs);
    if (!after || bullets.has(after) || textBefore(mark, after, runs)) continue;
    // An item says something in words; a plot's point beside an axis label ("C/θ") does not.
    if (!/\p{L}{2}/u.test(rowTextAfter(mark, after, runs))) continue;
    // Marks side by side on one row key a chart's legend ("■ 2019  ■ 2020"); a list has one bullet to a line.
    if (marks.some((other) => besideOnRow(mark, other, after.fontSize))) continue;
    // Text that opens with its own marker ("1.", "•") has no need of another.
    if (isBulleted(`${after.text.trim()} x`)) continue;
    bullets.set(after, {
      text: BULLET,
      left: mark.left,
      right: mark.right,
      top: after.top,
      bottom: after.bottom,
      baseline: after.baseline,
      fontSize: after.fontSize,
      fontName: after.fontName,
      mono: false,
    });
  }
  if (bullets.size === 0) return [...runs];
  return runs.flatMap((run) => {
    const bullet = bullets.get(run);
    return bullet ? [bullet, run] : [run];
  });
};
