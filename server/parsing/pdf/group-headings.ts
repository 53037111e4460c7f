/**
 * Headings centred over a group of columns but narrower than the group ("Total" over "Male Female All"): their own
 * extent reaches one column only, so the atoms alone would put them in that column, or join them to its sub-heading.
 * A heading line above another header line that is aligned with no sub-heading under it (left, right or centre), and
 * whose centre is the centre of a wider run of sub-headed columns, spans that run (the widest that fits between the
 * line's other headings). A row label heading with nothing under it in the header spans the header rows (rowspan).
 */

export type PlacedCell = { col: number; colSpan: number; rowSpan?: number; text: string; left: number; right: number };

/** Positions in a PDF's text layer are exact: edges this close (points) are set on one alignment. */
const ALIGNED = 1.5;

const centre = (c: { left: number; right: number }) => (c.left + c.right) / 2;

const alignedWith = (a: PlacedCell, b: PlacedCell) =>
  Math.abs(a.left - b.left) <= ALIGNED ||
  Math.abs(a.right - b.right) <= ALIGNED ||
  Math.abs(centre(a) - centre(b)) <= ALIGNED;

/** Each column's extent from the single-column cells of the rows below `from`. */
const extents = (rows: PlacedCell[][], from: number) => {
  const out = new Map<number, { left: number; right: number }>();
  for (const cell of rows.slice(from).flat()) {
    if (cell.colSpan !== 1) continue;
    const e = out.get(cell.col);
    out.set(cell.col, e ? { left: Math.min(e.left, cell.left), right: Math.max(e.right, cell.right) } : { ...cell });
  }
  return out;
};

const widen = (cell: PlacedCell, row: PlacedCell[], below: PlacedCell[], rows: PlacedCell[][], r: number) => {
  if (cell.col === 0 || cell.colSpan !== 1) return;
  // Aligned with the heading under it: the first line of a wrapped heading.
  if (below.some((c) => c.col === cell.col && alignedWith(c, cell))) return;
  const taken = new Set(
    row.filter((c) => c !== cell).flatMap((c) => [...Array(c.colSpan).keys()].map((k) => c.col + k)),
  );
  const open = (col: number) => col >= 1 && !taken.has(col) && below.some((c) => c.col === col && c.colSpan === 1);
  const ext = extents(rows, r + 1);
  let best: [number, number] | null = null;
  for (let a = cell.col; open(a); a--)
    for (let b = cell.col; open(b); b++) {
      const left = ext.get(a)?.left;
      const right = ext.get(b)?.right;
      if (b === a || left === undefined || right === undefined) continue;
      const tolerance = Math.max(3, 0.12 * (right - left));
      if (Math.abs((left + right) / 2 - centre(cell)) > tolerance) continue;
      if (!best || b - a > best[1] - best[0]) best = [a, b];
    }
  if (best) [cell.col, cell.colSpan] = [best[0], best[1] - best[0] + 1];
};

/** Widens the group headings of the first `head` rows in place. */
export const widenGroupHeadings = (rows: PlacedCell[][], head: number) => {
  for (let r = 0; r + 1 < head; r++) {
    const row = rows[r] ?? [];
    for (const cell of row) widen(cell, row, rows[r + 1] ?? [], rows, r);
  }
};
