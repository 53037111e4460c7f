/**
 * Headings centred over a group of columns but narrower than the group ("Total" over "Male Female All"): their own
 * extent reaches one column only, so the atoms alone would put them in that column, or join them to its sub-heading.
 * A heading line above another header line that is aligned with no sub-heading under it (left, right or centre), and
 * whose centre is the centre of a wider run of sub-headed columns, spans that run (the widest that fits between the
 * line's other headings). A row label heading with nothing under it in the header spans the header rows (rowspan).
 * Narrow figure columns set close together (a paper's results table) let a heading reach over the middle two of its
 * four columns, or be centred on the middle sub-heading of its three: both are widened to the group they head.
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

/** The columns the sub-headings cover, and those where one of them starts or ends (a group's possible edges). */
const coveredBelow = (below: PlacedCell[]) => {
  const starts = new Set(below.map((c) => c.col));
  const ends = new Set(below.map((c) => c.col + c.colSpan - 1));
  const inside = new Set(below.flatMap((c) => [...Array(c.colSpan).keys()].map((k) => c.col + k)));
  return { starts, ends, inside };
};

/** Centred, left or right aligned with the sub-heading under it: maybe the first line of a wrapped heading. */
const overSubHeading = (cell: PlacedCell, below: PlacedCell[]) =>
  cell.colSpan === 1 && below.some((c) => c.col === cell.col && alignedWith(c, cell));

type Extents = Map<number, { left: number; right: number }>;

/**
 * A heading centred over its cells, not over their text: over figures set flush right, a run's text sits right of
 * the run's middle ("Revenue" over "2023 2022" right-aligned in wide cells). Where the cells' edges are is unknown,
 * but each lies in the gutter beside its column's text: the heading is over the run when some pair of edges, one in
 * each gutter, has its centre. Only for a heading that reaches out of its own column's text into a gutter, and the
 * narrowest such run.
 */
const centredInGutters = (
  cell: PlacedCell,
  ext: Extents,
  starts: Set<number>,
  ends: Set<number>,
  open: (col: number) => boolean,
): { a: number; b: number } | null => {
  const own = ext.get(cell.col);
  if (cell.colSpan !== 1 || !own || (cell.right <= own.right + ALIGNED && cell.left >= own.left - ALIGNED)) return null;
  const fits = (a: number, b: number) => {
    const [first, last] = [ext.get(a), ext.get(b)];
    if (!first || !last) return false;
    const [outerLeft, outerRight] = [ext.get(a - 1)?.right ?? -Infinity, ext.get(b + 1)?.left ?? Infinity];
    const c = 2 * centre(cell);
    return c >= outerLeft + last.right && c <= first.left + outerRight;
  };
  const runs: { a: number; b: number }[] = [];
  for (let a = cell.col; open(a); a--)
    for (let b = cell.col; open(b); b++) if (b > a && starts.has(a) && ends.has(b) && fits(a, b)) runs.push({ a, b });
  return runs.reduce<{ a: number; b: number } | null>((w, r) => (!w || r.b - r.a < w.b - w.a ? r : w), null);
};

const widen = (cell: PlacedCell, row: PlacedCell[], below: PlacedCell[], rows: PlacedCell[][], r: number) => {
  const others = row.filter((c) => c !== cell && c.col >= 1 && c.text);
  if (cell.col === 0) return;
  // A heading already over two columns is widened only beside other group headings ("Small", "Medium", "Large" each
  // over four): alone, a wider run centred on it is as likely chance (columns far apart on both sides).
  if (cell.colSpan > 1 && others.length === 0) return;
  const taken = new Set(
    row.filter((c) => c !== cell).flatMap((c) => [...Array(c.colSpan).keys()].map((k) => c.col + k)),
  );
  // Sub-headings may span columns themselves ("Image" and "Text" under "Supervised"): a group never cuts one.
  const { starts, ends, inside } = coveredBelow(below);
  const open = (col: number) => col >= 1 && !taken.has(col) && inside.has(col);
  const ext = extents(rows, r + 1);
  const last = cell.col + cell.colSpan - 1;
  const runs: { a: number; b: number; off: number }[] = [];
  for (let a = cell.col; open(a); a--)
    for (let b = last; open(b); b++) {
      const left = ext.get(a)?.left;
      const right = ext.get(b)?.right;
      if (b === a || left === undefined || right === undefined || !starts.has(a) || !ends.has(b)) continue;
      const off = Math.abs((left + right) / 2 - centre(cell));
      if (off <= Math.max(3, 0.12 * (right - left))) runs.push({ a, b, off });
    }
  if (runs.length === 0) {
    const fit = centredInGutters(cell, ext, starts, ends, open);
    if (fit) [cell.col, cell.colSpan] = [fit.a, fit.b - fit.a + 1];
    return;
  }
  // The best centred runs, the widest of them: a heading centred over four columns is also centred over the middle
  // two, and nearly so over five (a column more on one side, within the tolerance of so wide a run).
  const closest = Math.min(...runs.map((run) => run.off));
  const best = runs
    .filter((run) => run.off <= closest + 2 * ALIGNED)
    .reduce<(typeof runs)[number] | null>((w, run) => (!w || run.b - run.a > w.b - w.a ? run : w), null);
  if (best) [cell.col, cell.colSpan] = [best.a, best.b - best.a + 1];
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
    const aligned = new Set(row.filter((c) => c.col >= 1 && overSubHeading(c, below)));
    for (const cell of row) if (!aligned.has(cell)) widen(cell, row, below, rows, r);
    // A heading aligned with the sub-heading under it is the first line of a wrapped heading, unless the row's other
    // headings are all group headings over several columns (or aligned ones): then it heads a group too ("Memory"
    // centred on "CPU" of "GPU CPU Disk", beside "Speed" and "Quality" over theirs).
    const headings = row.filter((c) => c.col >= 1 && c.text);
    const groups = headings.filter((c) => c.colSpan > 1);
    if (groups.length === 0 || groups.length + aligned.size < headings.length) continue;
    for (const cell of aligned) widen(cell, row, below, rows, r);
  }
};
