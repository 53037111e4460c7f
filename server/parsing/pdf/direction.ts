/**
 * Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko …) in the text layer. PDFium gives their characters in
 * reading order, each drawn to the left of the one before; runs and lines must follow that order instead of the
 * page's left-to-right one, or every word comes out reversed and cut into letters.
 */

/** A letter of a right-to-left script, its presentation forms included. */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const LETTER = /\p{L}/u;

export const isRtlChar = (char: string): boolean => char >= "\u0590" && RTL_LETTER.test(char);

/** How many of a text's letters belong to right-to-left scripts, and how many to others. */
const letters = (text: string) => {
  let rtl = 0;
  let ltr = 0;
  for (const char of text) {
    if (char < "A") continue;
    if (isRtlChar(char)) rtl++;
    else if (LETTER.test(char)) ltr++;
  }
  return { rtl, ltr };
};

/**
 * Whether a line (its pieces given left to right) reads right to left: it begins at its right end and ends at its
 * left end in Hebrew or Arabic, whatever Latin phrases it holds between; when its two ends disagree, by the most
 * letters. Numbers and Latin words inside keep their own order (rightToLeftOrder).
 */
export const readsRightToLeft = (texts: readonly string[]): boolean => {
  if (!texts.some((text) => RTL_LETTER.test(text))) return false;
  const counts = texts.map(letters).filter((c) => c.rtl + c.ltr > 0);
  const rtl = (c: { rtl: number; ltr: number }) => c.rtl > c.ltr;
  const [first, last] = [counts[0], counts[counts.length - 1]];
  if (first && last && rtl(first) === rtl(last)) return rtl(first);
  const total = counts.reduce((sum, c) => ({ rtl: sum.rtl + c.rtl, ltr: sum.ltr + c.ltr }), { rtl: 0, ltr: 0 });
  return rtl(total);
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

const LATIN_LETTER = /\p{L}/u;

/** What a run of a right-to-left line holds: its script's letters, other letters (a Latin word), or neither. */
const runKind = (text: string): "rtl" | "ltr" | "neutral" => {
  if (RTL_LETTER.test(text)) return "rtl";
  return LATIN_LETTER.test(text) ? "ltr" : "neutral";
};

/**
 * The runs of a right-to-left line (given left to right) in reading order: from the right, but a Latin phrase or
 * address inside it ("www.example.com", "Quarry PDF parser"), with the punctuation between its words, reads left to
 * right as one piece. A number shown right of a Latin word stays apart: a number after the word ("ISO 9001") and a
 * number before a unit ("10 km") show alike, and units are the commoner.
 */
export const rightToLeftOrder = <T extends { text: string }>(runs: readonly T[]): T[] => {
  const kinds = runs.map((r) => runKind(r.text));
  const pieces: T[][] = [];
  for (let i = 0; i < runs.length; i++) {
    const last = pieces[pieces.length - 1];
    const inPhrase =
      i > 0 &&
      kinds[i - 1] !== "rtl" &&
      kinds[i] !== "rtl" &&
      last?.some((r) => runKind(r.text) === "ltr") &&
      (kinds[i] === "ltr" || kinds.slice(i + 1).find((k) => k !== "neutral") === "ltr");
    if (inPhrase && last) last.push(runs[i]!);
    else pieces.push([runs[i]!]);
  }
  return pieces.reverse().flat();
};

const ARABIC_LETTER = /(?=\p{L})\p{Script=Arabic}/u;
const DIGITS = "[0-9\u0660-\u0669\u06f0-\u06f9][0-9\u0660-\u0669\u06f0-\u06f9.,/:]*";
/** A number with a "-", "+" or percent sign inside or before it, as the page shows it. */
const SPLIT_NUMBER = new RegExp(`^[%\u066a\u2030]?${DIGITS}(?:[-+\u2212]${DIGITS})*[%\u066a\u2030]?$`);
const SPLITS = /([-+\u2212%\u066a\u2030])/;

/** Sentence punctuation after a number, which a right-to-left line shows at the number's left. */
const LEADING_MARKS = new RegExp(`^([.,:;!?\u060c\u061b\u061f]+)(${DIGITS})$`);

/**
 * A number of a right-to-left line in reading order, given what the line reads before it. A full stop or comma after
 * it shows at its left (".2024"). After Arabic letters (Unicode's bidirectional rule W2) a number's digits are Arabic
 * numbers, which a "-" or "+" does not join and a percent sign does not attach to: "0123-456-789" shows as
 * "789-456-0123", "50%" as "%50", its pieces in right-to-left order. After a Latin word or Hebrew letters (or none)
 * the number shows as written. So does one read before a Latin word (`after`), which may be the word's own number
 * shown at its right ("ISO 9001-2015", where the number is left whole) as well as a number before a unit ("10-20 km").
 */
export const numberInReadingOrder = (text: string, before: string, after = ""): string => {
  const marks = LEADING_MARKS.exec(text);
  if (marks) return `${marks[2]}${marks[1]}`;
  if (!SPLIT_NUMBER.test(text) || !SPLITS.test(text)) return text;
  const lastLetter = [...before].reverse().find((c) => LETTER.test(c));
  const nextLetter = [...after].find((c) => LETTER.test(c));
  if (!lastLetter || !ARABIC_LETTER.test(lastLetter) || (nextLetter && !isRtlChar(nextLetter))) return text;
  return text.split(SPLITS).filter(Boolean).reverse().join("");
};
