import type { GridCell } from "../table-structure";
import type { Line, UnruledTable } from "./types";

/**
 * A table of contents is read as a Table of two columns, entry and page (`metadata.table_kind: "contents"`): each
 * line ends in a page number after dot leaders (most lines) or a wide gap, and the numbers never go down. Without
 * leaders, a list of titles and numbers is an ordinary two-column table (unruled-tables.ts). A title wrapped over
 * two lines is one entry; the leaders are dropped.
 */

const MIN_ENTRIES = 3;
const ENTRY_RE = /^(.*?\p{L}.*?)\s*(?:(?:[.·…_]\s*){2,})?\s*(\d{1,4}|[ivxlcdm]{1,7})$/iu;
const LEADERS_RE = /(?:[.·…_]\s*){3,}/u;
/** A sentence's end or a colon: a title wrapped over two lines breaks after a word, never there. */
const ENDS_PARAGRAPH_RE = /[.!?:;]$/;

type Entry = { title: string; page: string; lines: number };

/**
 * A row of a statistical table has leaders too ("Robbery . . . . 100,496 43,039 989"): a line with more than the page
 * number after its last leaders is a table row.
 */
const isFigureRow = (line: Line, page: string): boolean =>
  LEADERS_RE.test(line.text) && line.text.trim().split(LEADERS_RE).at(-1)?.trim() !== page;

/** The entry a line ends, when it ends in a page number set apart (leaders or a cell gap). */
const entryOf = (line: Line): Omit<Entry, "lines"> | null => {
  const match = ENTRY_RE.exec(line.text.trim());
  if (!match || isFigureRow(line, match[2] ?? "")) return null;
  const apart =
    LEADERS_RE.test(line.text) || (line.segments.length >= 2 && /^\S+$/.test(line.segments.at(-1)?.text ?? ""));
  if (!apart) return null;
  return { title: (match[1] ?? "").replace(LEADERS_RE, " ").trim(), page: match[2] ?? "" };
};

const pageValue = (page: string) => (/^\d+$/.test(page) ? Number(page) : -1);

/** Entries from `start` on while lines end in page numbers (a wrapped title's first line joins its entry). */
const entriesFrom = (lines: Line[], start: number): Entry[] => {
  const entries: Entry[] = [];
  let pending = "";
  let pendingLines = 0;
  let previousPage = -Infinity;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    if (!line) break;
    const entry = entryOf(line);
    if (!entry) {
      // A wrapped title: one line without a number, only when the next one has one. A line ending a sentence or
      // leading into the list (":") is the last line of the paragraph above the contents, not a title's first line.
      const next = lines[i + 1];
      const sameSize = next && Math.abs(line.fontSize - next.fontSize) <= 0.1 * next.fontSize;
      if (pending || !next || !sameSize || !entryOf(next) || line.segments.length > 1) break;
      if (ENDS_PARAGRAPH_RE.test(line.text.trim())) break;
      pending = line.text.trim();
      pendingLines = 1;
      continue;
    }
    const value = pageValue(entry.page);
    if (value >= 0 && value < previousPage) break;
    if (value >= 0) previousPage = value;
    entries.push({
      title: pending ? `${pending} ${entry.title}` : entry.title,
      page: entry.page,
      lines: pendingLines + 1,
    });
    pending = "";
    pendingLines = 0;
  }
  return entries;
};

const contentsTable = (entries: Entry[]): UnruledTable => {
  const cells: GridCell[] = entries.flatMap((e, row) => [
    { row, col: 0, rowSpan: 1, colSpan: 1, text: e.title },
    { row, col: 1, rowSpan: 1, colSpan: 1, text: e.page },
  ]);
  return { rows: entries.length, cols: 2, headerRows: 0, cells, kind: "contents" };
};

/** Runs of lines that form a table of contents, as [start, end] line indexes and the table. */
export const findContents = (lines: Line[]): { start: number; end: number; table: UnruledTable }[] => {
  const found: { start: number; end: number; table: UnruledTable }[] = [];
  let i = 0;
  while (i < lines.length) {
    const entries = entriesFrom(lines, i);
    const used = entries.reduce((n, e) => n + e.lines, 0);
    const withLeaders = lines.slice(i, i + used).filter((l) => LEADERS_RE.test(l.text)).length;
    // Without leaders, a two-column list of words and numbers is as likely a plain table: ask for more entries.
    if (entries.length >= MIN_ENTRIES && withLeaders >= Math.max(2, entries.length / 2)) {
      found.push({ start: i, end: i + used - 1, table: contentsTable(entries) });
      i += used;
    } else i++;
  }
  return found;
};
