import { endsClause, isCaseless, wordCount } from "./caseless";
import type { Line } from "./types";

/**
 * Text that lines up like cells without being a table: a form's fields and a page's side box (an infobox beside
 * prose). A form with labelled fields is at best a key/value list; read as a table it hides its labels and text.
 */

type Cell = { col: number; colSpan: number; text: string };

const LABEL = /\p{L}[^:]*:$/u;
/** A gap above a line wider than this many font sizes is more than a blank line: a new group of fields. */
const FIELD_GROUP_GAP_EM = 3;

/**
 * A label alone on its line, ending in a colon, set after more than a blank line ("Ordinary Radio Buttons:" under a
 * row of check boxes' labels): it opens the form's next group of fields, it does not label a table's next rows.
 */
export const opensFieldGroup = (line: Line | undefined, above: Line | undefined): boolean =>
  !!line &&
  !!above &&
  LABEL.test(line.text.trim()) &&
  line.baseline - above.baseline > FIELD_GROUP_GAP_EM * line.fontSize;

/**
 * Key/value lines ("Name: …", "Date of birth: …"): most labels of the first column end in a colon. A table's row
 * labels name a row; a label with a colon introduces its value.
 */
export const isKeyValueList = (rows: Cell[][]): boolean => {
  const labels = rows.map((row) => row.find((c) => c.col === 0)?.text.trim() ?? "").filter(Boolean);
  const colons = labels.filter((t) => LABEL.test(t)).length;
  return colons >= 2 && colons >= 0.5 * labels.length;
};

const words = (text: string) => text.split(/\s+/).filter(Boolean);
/** Five words or more, one in lower case; in a script without case (Hebrew, Arabic, Chinese …), five words. */
const isSentence = (text: string) =>
  isCaseless(text) ? wordCount(text) >= 5 : words(text).length >= 5 && words(text).some((w) => /^\p{Ll}/u.test(w));

/** A lone article or preposition: a cell of its own only when justified prose is cut at its wide word spaces. */
const JOINER =
  /^(?:a|an|the|of|to|in|for|on|by|with|at|from|and|or|but|as|is|are|was|were|be|been|has|have|had|could|would|can|will|not|that|which|this|its|his|her|their)$/;

/**
 * A row that carries a line of running text: a sentence over three or more columns, or justified prose cut at its
 * wide word spaces into three or more cells that start in lower case, one of them ending a clause ("web",
 * "applications,", "including") or two of them a lone article or preposition ("for", "the", "reduction", "of").
 * Lower-case column headings ("population", "number of") end no clause and are not such words alone. In scripts without
 * case (Hebrew, Arabic, Chinese …) a sentence is five of their words, and three cells of their words with a clause's
 * end are justified prose too (a Hebrew list item stretched across its column).
 */
const carriesProse = (row: Cell[]) => {
  const lower = row.map((c) => c.text.trim()).filter((t) => /^\p{Ll}/u.test(t));
  const joiners = lower.filter((t) => JOINER.test(t)).length;
  // Hebrew, Arabic, Chinese or Japanese have no lower case: three cells of such words, one ending a clause.
  const caseless = row.map((c) => c.text.trim()).filter(isCaseless);
  return (
    row.some((c) => c.colSpan >= 3 && isSentence(c.text)) ||
    (lower.length >= 3 && (lower.some((t) => /[,;]$/.test(t)) || joiners >= 2)) ||
    (caseless.length >= 3 && caseless.some(endsClause))
  );
};

/**
 * Prose beside a box (a Wikipedia infobox next to the article's text, one column of a page whose gutter was not
 * found): a third of the rows or more, and two at least, carry running text.
 */
export const isProseBeside = (rows: Cell[][]): boolean => {
  const prose = rows.filter(carriesProse).length;
  return prose >= 2 && prose >= rows.length / 3;
};
