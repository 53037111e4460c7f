/**
 * Row labels over a group of body rows in a table without rules ("1991" beside the rows of its three series): the
 * label is set once, on the group's first row, or vertically centred on the group, and the rows under or around it
 * leave the first column empty. Such a label is one cell spanning its group (rowspan), as ICDAR 2013's ground truth
 * encodes it. Only a repeated pattern counts (two groups at least, every label a word, not a figure): a single row
 * without a label (a total) is no group, and a first column of figures with gaps is missing values.
 */

type Cell = { col: number; colSpan: number; rowSpan?: number; text: string };
type Kind = "label" | "alone" | "blank" | "other";

/**
 * A row's part in the groups of column `col`: its label (cells after it), its label alone, blank there with cells
 * after it only (a row inside a group: a row with a cell before `col` opens a group of an outer column), or other.
 */
const kindOf = (row: Cell[], col: number): Kind => {
  const first = row.find((c) => c.col === col);
  const after = row.some((c) => c.col > col);
  if (!first) return after && !row.some((c) => c.col < col) ? "blank" : "other";
  if (first.colSpan !== 1 || !first.text) return "other";
  if (after) return "label";
  return row.some((c) => c.col < col) ? "other" : "alone";
};

/** A group: the rows `from`..`to` (inclusive) under one label cell taken from row `anchor`. */
type Group = { anchor: number; from: number; to: number };

/** Label on the group's first row: each label row and the blank rows right under it. */
const groupsUnder = (kinds: Kind[]): Group[] => {
  const groups: Group[] = [];
  kinds.forEach((kind, i) => {
    if (kind !== "label") return;
    let to = i;
    while (kinds[to + 1] === "blank") to++;
    if (to > i) groups.push({ anchor: i, from: i, to });
  });
  return groups;
};

/**
 * Labels centred on their groups: as many blank rows above each label as below it (a label alone on its line sits
 * between the two middle rows; a group of one row has its label on that row). Null when the counts do not work out
 * for every label.
 */
const groupsAround = (kinds: Kind[]): Group[] | null => {
  const groups: Group[] = [];
  let i = 0;
  while (i < kinds.length) {
    let up = 0;
    while (kinds[i + up] === "blank") up++;
    const anchor = i + up;
    const kind = kinds[anchor];
    if (kind !== "label" && (up === 0 || kind !== "alone")) return null;
    const down = anchor + up;
    for (let k = anchor + 1; k <= down; k++) if (kinds[k] !== "blank") return null;
    groups.push({ anchor, from: i, to: down });
    i = down + 1;
  }
  return groups;
};

/**
 * Labels centred on groups of an even number of rows (a LaTeX \multirow over two rows): each label sits half a row
 * off, so it lands on either middle row, above or below the centre as the rows' baselines fall. The rows cut into
 * groups of one even size, each with one label on a middle row and blanks elsewhere. Null when no size fits.
 */
const groupsEven = (kinds: Kind[]): Group[] | null => {
  if (kinds.some((k) => k !== "label" && k !== "blank")) return null;
  for (let size = 2; size <= kinds.length / 2; size += 2) {
    if (kinds.length % size !== 0) continue;
    const groups: Group[] = [];
    for (let from = 0; from < kinds.length; from += size) {
      const chunk = kinds.slice(from, from + size);
      const at = chunk.indexOf("label");
      const middle = at === size / 2 - 1 || at === size / 2;
      if (!middle || chunk.lastIndexOf("label") !== at) break;
      groups.push({ anchor: from + at, from, to: from + size - 1 });
    }
    if (groups.length === kinds.length / size) return groups;
  }
  return null;
};

/**
 * The rows with each group's label moved to its first row as a cell spanning the group; `head` header rows kept.
 * Column `col` 0 by default; 1 for the labels of groups nested in a first column's groups ("DETR-NC" over its
 * "Simple", "Complex" and "All" rows inside "Canonical").
 */
export const spanRowGroups = (rows: Cell[][], head: number, isFigure: (text: string) => boolean, col = 0): Cell[][] => {
  const body = rows.slice(head).map((row) => row.map((c) => ({ ...c })));
  const kinds = body.map((row) => kindOf(row, col));
  if (!kinds.includes("blank")) return rows;
  const labels = body.flatMap((row) => row.filter((c) => c.col === col).map((c) => c.text));
  if (labels.some(isFigure)) return rows;
  const groups = groupsEven(kinds) ?? (kinds[0] === "blank" ? groupsAround(kinds) : groupsUnder(kinds));
  if (!groups || groups.length < 2) return rows;
  const dropped = new Set<number>();
  for (const { anchor, from, to } of groups) {
    const row = body[anchor] ?? [];
    const label = row.find((c) => c.col === col);
    if (!label) continue;
    body[anchor] = row.filter((c) => c !== label);
    if (kinds[anchor] === "alone" && body[anchor]?.length === 0) dropped.add(anchor);
    const span = to - from + 1 - (dropped.has(anchor) ? 1 : 0);
    const target = body[from] ?? [];
    target.push({ ...label, rowSpan: span });
    target.sort((a, b) => a.col - b.col);
  }
  return [...rows.slice(0, head), ...body.filter((_, i) => !dropped.has(i))];
};
