import type { PlacedCell } from "./group-headings";

/**
 * Headings centred down a header set over two lines (a LaTeX \multirow, an HTML `rowspan="2"`: "Method" beside the
 * group headings above and their sub-headings below, and maybe a last column's "Total" too) sit midway between them,
 * on a line of their own. They move up to the header's first row, empty in their columns, so they span the header
 * rows, as a stub's heading set on the first line does (joinHeader), instead of joining the sub-headings' row as the
 * first line of a wrapped heading.
 */
export const raiseCentredStub = (rows: PlacedCell[][], head: number) => {
  const columns = (row: PlacedCell[]) => row.flatMap((c) => [...Array(c.colSpan).keys()].map((k) => c.col + k));
  const headedElsewhere = (r: number) =>
    new Set(rows.slice(0, head).flatMap((row, k) => (k === r ? [] : columns(row))));
  const at = rows.findIndex((row, r) => {
    if (r < 1 || r >= head - 1 || row.length === 0 || !row.some((c) => c.text)) return false;
    const others = headedElsewhere(r);
    return columns(row).every((col) => !others.has(col));
  });
  const first = rows[0];
  const raised = rows[at];
  if (at < 1 || !first || !raised) return;
  const stubs = rows.slice(0, head).filter((row) => row.some((c) => c.col === 0 && c.text));
  if (stubs.length > 1 || !first.some((c) => c.col >= 1 && c.text)) return;
  rows[at] = [];
  // A column's heading other than the stub's is marked as spanning, or it would join its column's heading below.
  first.push(...raised.map((c) => (c.col >= 1 ? { ...c, rowSpan: 2 } : c)));
  first.sort((a, b) => a.col - b.col);
};
