/**
 * Table structure as the ICDAR 2013 table competition scores it: each cell's nearest non-empty neighbour to the right
 * and below, as (text, text, direction) relations. Two tables with the same cell texts but columns merged or split
 * share few relations, so the F1 of the relations measures structure, not only text.
 */

/** A cell placed on a grid; spans in grid units. */
export type GridCell = { row: number; col: number; rowSpan: number; colSpan: number; text: string };

/**
 * A cell's text as the competition compares it: letters and digits only, without spaces (ICDAR 2013's ground truth
 * often drops the spaces a PDF's words have, "unitedkingdom" for "United Kingdom").
 */
export const compactText = (text: string) =>
  (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join("");

/** Adjacency relations of one table: "a → b" (same row, next non-empty cell) and "a ↓ b" (same column). */
export const adjacencyRelations = (cells: readonly GridCell[]): string[] => {
  const grid = new Map<string, number>();
  const filled = cells.map((c) => compactText(c.text));
  cells.forEach((c, i) => {
    for (let r = c.row; r < c.row + c.rowSpan; r++)
      for (let k = c.col; k < c.col + c.colSpan; k++) grid.set(`${r},${k}`, i);
  });
  const rows = Math.max(0, ...cells.map((c) => c.row + c.rowSpan));
  const cols = Math.max(0, ...cells.map((c) => c.col + c.colSpan));
  const found = new Set<string>();
  const look = (from: number, r: number, k: number, dr: number, dk: number, dir: string) => {
    for (; r < rows && k < cols; r += dr, k += dk) {
      const other = grid.get(`${r},${k}`);
      if (other === undefined || other === from || !filled[other]) continue;
      found.add(`${from}|${other}|${dir}`);
      return;
    }
  };
  cells.forEach((c, i) => {
    if (!filled[i]) return;
    for (let r = c.row; r < c.row + c.rowSpan; r++) look(i, r, c.col + c.colSpan, 0, 1, "→");
    for (let k = c.col; k < c.col + c.colSpan; k++) look(i, c.row + c.rowSpan, k, 1, 0, "↓");
  });
  return [...found].map((key) => {
    const [a, b, dir] = key.split("|");
    return `${filled[Number(a)]} ${dir} ${filled[Number(b)]}`;
  });
};

const decode = (text: string) =>
  text
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The cells of an HTML table on their grid (rowspan and colspan honoured). */
export const htmlGrid = (html: string): GridCell[] => {
  const cells: GridCell[] = [];
  const taken = new Set<string>();
  const rows = [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)];
  rows.forEach((tr, row) => {
    let col = 0;
    for (const td of (tr[1] ?? "").matchAll(/<t([dh])\b([^>]*)>([\s\S]*?)<\/t[dh]>/gi)) {
      while (taken.has(`${row},${col}`)) col++;
      const attrs = td[2] ?? "";
      const span = (name: string) =>
        Math.max(1, Math.min(1000, Number(new RegExp(`${name}="(\\d+)"`).exec(attrs)?.[1] ?? 1)));
      const cell = { row, col, rowSpan: span("rowspan"), colSpan: span("colspan"), text: decode(td[3] ?? "") };
      for (let r = row; r < row + cell.rowSpan; r++)
        for (let k = col; k < col + cell.colSpan; k++) taken.add(`${r},${k}`);
      cells.push(cell);
      col += cell.colSpan;
    }
  });
  return cells;
};
