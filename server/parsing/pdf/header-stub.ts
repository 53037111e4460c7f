import type { PlacedCell } from "./group-headings";

/**
 * The stub's heading of a header set over two lines, centred across both (a LaTeX \multirow: "Method" beside the
 * group headings above and their sub-headings below), sits midway between them, on a line of its own. It moves up to
 * the header's first row, empty there, so it spans the header rows, as a stub's heading set on the first line does
 * (joinHeader), instead of joining the sub-headings' row as the first line of a wrapped heading.
 */
export const raiseCentredStub = (rows: PlacedCell[][], head: number) => {
  const at = rows.findIndex((row, r) => r >= 1 && r < head - 1 && row.length === 1 && row[0]?.col === 0);
  const first = rows[0];
  const stub = rows[at]?.[0];
  if (at < 1 || !first || !stub?.text) return;
  const stubs = rows.slice(0, head).filter((row) => row.some((c) => c.col === 0 && c.text));
  if (stubs.length !== 1 || !first.some((c) => c.col >= 1 && c.text)) return;
  rows[at] = [];
  first.unshift(stub);
};
