import type { Box } from "./types";

/**
 * Rows ruled in with a table that are not part of it: a caption set in the table's first row across every column
 * ("Exhibit 19 Percentage of schools…") and a note in its last ("Exhibit reads: …", "Source: …"). They leave the
 * grid and become the caption and the note beside it.
 */

type Cell = { row: number; col: number; rowSpan: number; colSpan: number; text: string };
export type OutsideRow = Box & { kind: "caption" | "note"; text: string };

const CAPTION_RE = /^(?:figure|fig\.|table|tab\.|chart|exhibit)\s*\d{1,4}[a-z]?\b/i;
const NOTE_RE = /^(?:sources?|notes?|\*|(?:exhibit|table|figure) reads)\b/i;

export const takeOutsideRows = <T extends Box & { rows: number; cols: number; cells: Cell[] }>(
  table: T,
  ys: number[],
): { table: T; outside: OutsideRow[] } => {
  const whole = (row: number) => {
    const inRow = table.cells.filter((c) => c.row <= row && c.row + c.rowSpan > row);
    const only = inRow[0];
    return inRow.length === 1 && only && only.colSpan === table.cols && only.rowSpan === 1 ? only : null;
  };
  const outside: OutsideRow[] = [];
  const sides = { left: table.left, right: table.right };
  let first = 0;
  let last = table.rows - 1;
  const caption = whole(first);
  if (caption && CAPTION_RE.test(caption.text) && last - first >= 2) {
    outside.push({
      ...sides,
      top: ys[0] ?? table.top,
      bottom: ys[1] ?? table.top,
      kind: "caption",
      text: caption.text,
    });
    first++;
  }
  const note = whole(last);
  if (note && NOTE_RE.test(note.text) && last - first >= 2) {
    outside.push({ ...sides, top: ys[last] ?? table.bottom, bottom: table.bottom, kind: "note", text: note.text });
    last--;
  }
  if (outside.length === 0) return { table, outside };
  const cells = table.cells.filter((c) => c.row >= first && c.row <= last).map((c) => ({ ...c, row: c.row - first }));
  const box = { top: ys[first] ?? table.top, bottom: ys[last + 1] ?? table.bottom };
  return { table: { ...table, ...box, rows: last - first + 1, cells }, outside };
};
