import type { Run } from "./types";

/**
 * Word sets a nested list's bullet as the letter "o" in Courier New, with a tab before the item's words. A lone "o"
 * in a font of its own, with the item's words a gap to its right on its baseline and no text just before it on its
 * row, is that bullet ("◦"), not a word: the word "o" (Portuguese's article, Italian's "or") is set in the text's
 * font, a space from its neighbours.
 */

const BULLET = "◦";
/** The gap between the bullet and the item's words, in ems: wider than a space, within a list's indent. */
const GAP_EM = { min: 0.3, max: 3 } as const;

const onRow = (a: Run, b: Run) => Math.abs(a.baseline - b.baseline) < 0.3 * Math.max(a.fontSize, b.fontSize);

const isOBullet = (run: Run, runs: readonly Run[]): boolean => {
  if (run.text.trim() !== "o") return false;
  const em = run.fontSize;
  let next: Run | null = null;
  for (const other of runs) {
    if (other === run || !other.text.trim() || !onRow(run, other)) continue;
    // Text ending just before the "o", or over it: a word inside a line.
    if (other.left < run.left && other.right > run.left - em) return false;
    if (other.left >= run.right && (!next || other.left < next.left)) next = other;
  }
  if (!next || next.fontName === run.fontName) return false;
  const gap = next.left - run.right;
  return gap >= GAP_EM.min * em && gap <= GAP_EM.max * em;
};

export const withLetterOBullets = (runs: readonly Run[]): Run[] =>
  runs.map((run) => (isOBullet(run, runs) ? { ...run, text: BULLET } : run));
