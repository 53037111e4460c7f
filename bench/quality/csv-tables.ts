import { readFileSync } from "node:fs";
import { adjacencyRelations, type GridCell } from "@/server/parsing/table-structure";

/**
 * Expected tables kept as CSV text in a JSON object, table name → CSV (gmft's `data/test/references/ditr_csvs.json`,
 * the tables its tests compare its output with). Each CSV is a full grid: the first line the header, an empty field
 * an empty cell; a spanning cell is not marked (a span's text in its first cell, or repeated in each). pandas' `nan`
 * is an empty cell, and PDFium's mark of a hyphen that broke a word over two lines (U+FFFE) is dropped, as the word
 * reads joined.
 */

/** Rows of fields of RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
export const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += text[++i];
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      rows.push([...row, field]);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
};

/** Cell texts and adjacency relations of the named tables of a name → CSV JSON file. */
export const csvTables = (file: string, names: readonly string[]): { cells: string[]; relations: string[] } => {
  const byName = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  const cells: string[] = [];
  const relations: string[] = [];
  for (const name of names) {
    const csv = byName[name];
    if (csv === undefined) throw new Error(`no table ${name} in ${file}`);
    const grid: GridCell[] = [];
    parseCsv(csv).forEach((fields, row) =>
      fields.forEach((value, col) => {
        const clean = value
          .replace(/\uFFFE/g, "")
          .replace(/\s+/g, " ")
          .trim();
        const text = clean === "nan" ? "" : clean;
        if (text) cells.push(text);
        grid.push({ row, col, rowSpan: 1, colSpan: 1, text });
      }),
    );
    relations.push(...adjacencyRelations(grid));
  }
  return { cells, relations };
};
