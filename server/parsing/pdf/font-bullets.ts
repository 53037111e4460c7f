import type { Run } from "./types";

/**
 * Bullets typed as letters. Word sets a nested list's bullet as the letter "o" in Courier New, and a bullet from a
 * symbol font (Wingdings, Dingbats) comes out as the letter its code has in a text font when the PDF maps it to nothing
 * better: Wingdings' round bullet as "l", its square as "§" or "n", its arrow as "Ø", its tick as "ü". A lone
 * character in a symbol font, or a lone "o" in a font of its own, with the item's words a gap to its right on its
 * baseline in another font and no text just before it on its row, is a bullet ("•", "◦"), not a word: the word "o"
 * (Portuguese's article, Italian's "or") is set in the text's font, a space from its neighbours. An "o" typed as a
 * bullet in the text's own font is one only in a column of them, each a wide gap before its item's words.
 */

/** Fonts of pictures only; Symbol is left out: its Greek letters are words of a formula ("α is the rate"). */
const SYMBOL_FONT = /wingdings|webdings|dingbat/i;
/** A glyph whose font maps it to no character: a control or private-use code (LaTeX's TS1 bullet, code 0x88, from a
 * bitmap Type 3 font without a Unicode map). Alone before an item's words, it is the item's bullet. */
const UNMAPPED = /^[\p{Cc}\p{Co}]$/u;
/** The gap between the bullet and the item's words, in ems: wider than a space, within a list's indent. */
const GAP_EM = { min: 0.3, max: 3 } as const;

const onRow = (a: Run, b: Run) => Math.abs(a.baseline - b.baseline) < 0.3 * Math.max(a.fontSize, b.fontSize);

const bulletOf = (run: Run): string | null => {
  const text = run.text.trim();
  if ([...text].length !== 1) return null;
  if (SYMBOL_FONT.test(run.fontName) || UNMAPPED.test(text)) return "•";
  return text === "o" ? "◦" : null;
};

/** The first run right of `run` on its row, or null when text ends just before it or over it (a character inside a
 * line). */
const wordAfter = (run: Run, runs: readonly Run[]): Run | null => {
  const em = run.fontSize;
  let next: Run | null = null;
  for (const other of runs) {
    if (other === run || !other.text.trim() || !onRow(run, other)) continue;
    if (other.left < run.left && other.right > run.left - em) return null;
    if (other.left >= run.right && (!next || other.left < next.left)) next = other;
  }
  return next;
};

/** The gap after an "o" in the words' own font that makes it a bullet: wider than a stretched word space. */
const SAME_FONT_GAP_EM = 0.6;

/** An "o" in the words' own font, a wide gap before them, with another such "o" straight above or below it. */
const inColumnOfOs = (run: Run, runs: readonly Run[]): boolean => {
  const em = run.fontSize;
  const wide = (o: Run) => {
    const next = wordAfter(o, runs);
    return !!next && next.left - o.right >= SAME_FONT_GAP_EM * em && next.left - o.right <= GAP_EM.max * em;
  };
  if (!wide(run)) return false;
  return runs.some(
    (other) =>
      other !== run &&
      other.text.trim() === "o" &&
      other.fontName === run.fontName &&
      Math.abs(other.left - run.left) <= 0.1 * em &&
      !onRow(run, other) &&
      Math.abs(other.baseline - run.baseline) <= 4 * em &&
      wide(other),
  );
};

const startsItem = (run: Run, runs: readonly Run[]): boolean => {
  const em = run.fontSize;
  const next = wordAfter(run, runs);
  if (!next) return false;
  if (next.fontName === run.fontName) return run.text.trim() === "o" && inColumnOfOs(run, runs);
  const gap = next.left - run.right;
  return gap >= GAP_EM.min * em && gap <= GAP_EM.max * em;
};

export const withFontBullets = (runs: readonly Run[]): Run[] =>
  runs.map((run) => {
    const bullet = bulletOf(run);
    return bullet && startsItem(run, runs) ? { ...run, text: bullet } : run;
  });
