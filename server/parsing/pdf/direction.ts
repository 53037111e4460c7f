/**
 * Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko …) in the text layer. PDFium gives their characters in
 * reading order, each drawn to the left of the one before; runs and lines must follow that order instead of the
 * page's left-to-right one, or every word comes out reversed and cut into letters.
 */

/** A letter of a right-to-left script, its presentation forms included. */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const LETTER = /\p{L}/u;

export const isRtlChar = (char: string): boolean => char >= "\u0590" && RTL_LETTER.test(char);

/**
 * Whether a line reads right to left: more of its letters belong to right-to-left scripts than not. Numbers and
 * Latin words inside it keep their own order (they are runs of their own, each read left to right).
 */
export const readsRightToLeft = (texts: readonly string[]): boolean => {
  if (!texts.some((text) => RTL_LETTER.test(text))) return false;
  let rtl = 0;
  let ltr = 0;
  for (const text of texts) {
    for (const char of text) {
      if (char < "A") continue;
      if (isRtlChar(char)) rtl++;
      else if (LETTER.test(char)) ltr++;
    }
  }
  return rtl > ltr;
};

const MIRRORED: Record<string, string> = {
  "(": ")",
  ")": "(",
  "[": "]",
  "]": "[",
  "{": "}",
  "}": "{",
  "<": ">",
  ">": "<",
  "«": "»",
  "»": "«",
};

/**
 * A right-to-left run's brackets as read. Drawn in reading order, PDFium gives each bracket as read; drawn left to
 * right (as Word writes a line) it reverses the letters but names each bracket by the glyph shown, which is its
 * mirror image: "15(ב)(4)" comes as "15)ב()4(". Such a run has a closing bracket before any opening one.
 */
export const closesFirst = (text: string): boolean => {
  const depth = { "(": 0, "[": 0, "{": 0 };
  for (const char of text) {
    if (char in depth) depth[char as keyof typeof depth]++;
    else if (char === ")" && --depth["("] < 0) return true;
    else if (char === "]" && --depth["["] < 0) return true;
    else if (char === "}" && --depth["{"] < 0) return true;
  }
  return false;
};

export const mirrorBrackets = (text: string): string => text.replace(/[()[\]{}<>«»]/g, (c) => MIRRORED[c] ?? c);

type Cell = { row: number; col: number; colSpan: number; text: string };

/** A table whose cells read right to left, its columns numbered from the right (its first column is the rightmost). */
export const rightToLeftTable = <T extends { cols: number; cells: Cell[] }>(table: T): T => {
  if (!readsRightToLeft(table.cells.map((c) => c.text))) return table;
  const cells = table.cells
    .map((c) => ({ ...c, col: table.cols - c.col - c.colSpan }))
    .sort((a, b) => a.row - b.row || a.col - b.col);
  return { ...table, cells };
};

/** A table's rows of cell texts, each from the right when the cells read right to left. */
export const rightToLeftRows = (rows: string[][]): string[][] =>
  readsRightToLeft(rows.flat()) ? rows.map((row) => [...row].reverse()) : rows;
