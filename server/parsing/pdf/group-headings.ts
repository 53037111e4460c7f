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

/**
 * Two or more headings each centred over the middle one of a run of the same odd number of columns, the runs side by
 * side ("Total", "Public", "Private" over "PK–12 PK–8 9–12" each): group headings, though each is also centred on the
 * sub-heading under it, as the first line of a wrapped heading is. A wrapped heading's lines sit over adjacent
 * columns, or over one column alone, never tile the columns in runs of three or more.
 */
const tileGroups = (row: PlacedCell[], below: PlacedCell[], rows: PlacedCell[][], r: number) => {
  const cells = row.filter((c) => c.col >= 1 && c.colSpan === 1).sort((a, b) => a.col - b.col);
  if (cells.length < 2 || cells.length !== row.filter((c) => c.col >= 1).length) return;
  const ext = extents(rows, r + 1);
  const headed = (col: number) => below.some((c) => c.col === col && c.colSpan === 1);
  for (let half = 1; half <= 3; half++) {
    const runs = cells.map((c) => [c.col - half, c.col + half] as const);
    const tiled = runs.every(([a, b], i) => {
      const left = ext.get(a)?.left;
      const right = ext.get(b)?.right;
      if (a < 1 || left === undefined || right === undefined || !headed(a) || !headed(b)) return false;
      const cell = cells[i];
      if (!cell || Math.abs((left + right) / 2 - centre(cell)) > Math.max(3, 0.12 * (right - left))) return false;
      return i === 0 || runs[i - 1]?.[1] === a - 1;
    });
    if (!tiled) continue;
    cells.forEach((cell, i) => {
      const [a, b] = runs[i] ?? [cell.col, cell.col];
      [cell.col, cell.colSpan] = [a, b - a + 1];
    });
    return;
  }
};

/**
 * The header row under row `r` that holds sub-headings: a row label heading centred down the header rows (a stub
 * spanning them, alone on a line of its own between the group headings and the sub-headings) is passed over.
 */
const headingsBelow = (rows: PlacedCell[][], r: number, head: number): PlacedCell[] => {
  for (let k = r + 1; k < head; k++) {
    const row = rows[k] ?? [];
    if (row.some((c) => c.col > 0)) return row;
  }
  return rows[r + 1] ?? [];
};

/** Widens the group headings of the first `head` rows in place. */
export const widenGroupHeadings = (rows: PlacedCell[][], head: number) => {
  for (let r = 0; r + 1 < head; r++) {
    const row = rows[r] ?? [];
    const below = headingsBelow(rows, r, head);
    tileGroups(row, below, rows, r);
    for (const cell of row) widen(cell, row, below, rows, r);
  }
};
