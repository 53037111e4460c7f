import { readFileSync } from "node:fs";
import { adjacencyRelations, type GridCell } from "@/server/parsing/table-structure";

/**
 * tabula-java's expected tables (its `src/test/resources/…/json/*.json`, the JSON writer's output its tests compare
 * with): a list of tables, each `data` a full grid of rows of cells with their box. A cell tabula covers by a spanning
 * neighbour is a placeholder of no size: after a cell in its row it widens that cell (a column span), at the start of
 * a row it lengthens the cell above (a row span).
 */

type TabulaCell = { top?: number; left?: number; width?: number; height?: number; text?: string };
type TabulaTable = { page_number?: number; data?: TabulaCell[][] };

const isPlaceholder = (c: TabulaCell) => !c.text && !c.width && !c.height && !c.left && !c.top;

/** Cells of one table, spans folded in; empty cells stay (they are empty grid positions). */
export const tabulaGrid = (table: TabulaTable): GridCell[] => {
  const grid: GridCell[] = [];
  const at = new Map<string, GridCell>();
  (table.data ?? []).forEach((row, r) =>
    row.forEach((cell, col) => {
      if (isPlaceholder(cell)) {
        const left = col > 0 ? at.get(`${r},${col - 1}`) : undefined;
        const above = at.get(`${r - 1},${col}`);
        const owner = left && left.row === r ? left : above;
        if (owner === left && left) left.colSpan = col - left.col + 1;
        else if (owner) owner.rowSpan = r - owner.row + 1;
        if (owner) at.set(`${r},${col}`, owner);
        return;
      }
      const text = (cell.text ?? "").replace(/\s+/g, " ").trim();
      const g: GridCell = { row: r, col, rowSpan: 1, colSpan: 1, text };
      grid.push(g);
      at.set(`${r},${col}`, g);
    }),
  );
  return grid;
};

/** Cell texts and adjacency relations of the tables on the first `pages` pages of a tabula JSON file. */
export const tabulaTables = (file: string, pages: number): { cells: string[]; relations: string[] } => {
  const tables = JSON.parse(readFileSync(file, "utf8")) as TabulaTable[];
  const cells: string[] = [];
  const relations: string[] = [];
  for (const table of tables) {
    if ((table.page_number ?? 1) > pages) continue;
    const grid = tabulaGrid(table);
    cells.push(...grid.map((c) => c.text).filter(Boolean));
    relations.push(...adjacencyRelations(grid));
  }
  return { cells, relations };
};
