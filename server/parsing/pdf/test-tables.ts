import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import type { ParsedElement } from "../types";

/** Test helpers of the table tests: a generated PDF's elements (text layer), and a table's rows of cell texts. */

export const parsePdf = async (bytes: Uint8Array) =>
  (await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" })).elements;

export const tableRows = (table: ParsedElement | undefined) => {
  const rows: string[][] = [];
  for (const c of htmlGrid(table?.html ?? "")) (rows[c.row] ??= []).push(c.text);
  return rows;
};
