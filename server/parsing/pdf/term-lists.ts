import { union, type Block, type Line, type UnruledTable } from "./types";

/**
 * A nomenclature or glossary: a short term and its meaning per row ("k  Thermal conductivity [W m−1 K−1]", "ASME
 * American Society of Mechanical Engineers"), sometimes under group headings ("Greek letters"). Its two columns line
 * up like a table's, but it is a list: each row is an item, the term and its meaning together. A table of two columns
 * keeps its grid when it has a header row (set in bold, or one word over the meanings: "Symbol | Description"), when
 * its second column holds figures or single words (values, not meanings), or when its first column holds more than
 * a term (a label of several words, a figure).
 */

const MIN_TERMS = 3;
const MAX_TERM_CHARS = 10;
const BOLD = /bold|black|heavy|semibold|demi/i;

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length;

const isTerm = (text: string) =>
  text.length <= MAX_TERM_CHARS && words(text).length <= 2 && !/^[\d.,%+\-−–]+$/.test(text);

const isMeaning = (text: string) => /^\p{L}/u.test(text) && letters(text) >= 3;

const isBold = (line: Line) => line.segments.flatMap((s) => s.runs).every((r) => BOLD.test(r.fontName));

export const isTermList = (table: UnruledTable, lines: Line[]): boolean => {
  if (table.kind || table.cols !== 2) return false;
  const rows = Array.from({ length: table.rows }, (_, r) =>
    table.cells.filter((c) => c.row === r && c.text.trim()).map((c) => ({ ...c, text: c.text.trim() })),
  );
  const pairs = rows.filter((row) => row.length === 2);
  const groups = rows.filter((row) => row.length === 1 && (row[0]?.colSpan === 2 || row[0]?.col === 0));
  if (pairs.length < MIN_TERMS || pairs.length < groups.length || pairs.length + groups.length < rows.length) {
    return false;
  }
  if (!groups.every((row) => isMeaning(row[0]?.text ?? ""))) return false;
  const terms = pairs.map((row) => row[0]?.text ?? "");
  const meanings = pairs.map((row) => row[1]?.text ?? "");
  if (!terms.every(isTerm) || !meanings.every(isMeaning)) return false;
  // Meanings are phrases: most of several words, the first row's too (one word over them is a column heading).
  const phrases = meanings.filter((m) => words(m).length >= 2).length;
  if (words(meanings[0] ?? "").length < 2 || phrases < (2 / 3) * meanings.length) return false;
  const [first, ...rest] = lines;
  return !(first && isBold(first) && rest.some((l) => !isBold(l)));
};

/**
 * The list's items: a line that starts left of the meanings' column opens an item (a term and its meaning, or a
 * group's heading); a line starting at the meanings' column is the meaning above wrapped onto it.
 */
export const termItems = (lines: Line[]): Block[] => {
  const meaningLeft = Math.min(...lines.flatMap((l) => (l.segments[1] ? [l.segments[1].left] : [])));
  const items: Line[][] = [];
  for (const line of lines) {
    const last = items[items.length - 1];
    if (last && line.left >= meaningLeft - 0.5 * line.fontSize) last.push(line);
    else items.push([line]);
  }
  return items.map((item) => ({ ...union(item), lines: item, kind: "text", item: true }));
};

/**
 * The list's first group heading, alone above its first row ("Roman letters" over "k  Thermal conductivity"), is
 * left out of the rows that line up: a one-line block right above the list, in the font, size and indent of one of
 * the list's other group headings, is that heading, and an item too.
 */
export const headsTermList = (above: Block | undefined, items: Block[]): boolean => {
  const line = above?.kind === "text" && above.lines.length === 1 ? above.lines[0] : undefined;
  const first = items[0]?.lines[0];
  if (!line || !first || line.segments.length !== 1) return false;
  const em = line.fontSize;
  const gap = first.baseline - line.baseline;
  if (gap <= 0 || gap > 1.6 * em) return false;
  return items.some((item) => {
    const group = item.lines[0];
    return (
      !!group &&
      group.segments.length === 1 &&
      group.fontName === line.fontName &&
      Math.abs(group.fontSize - em) <= 0.04 * em &&
      Math.abs(group.left - line.left) <= 0.5 * em
    );
  });
};
