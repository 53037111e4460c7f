import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import type { ParsedElement } from "../types";
import { buildInvoicePdf } from "./table-edges-fixtures";

const parse = async (bytes: Uint8Array) =>
  (await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" })).elements;

const rowsOf = (table: ParsedElement) => {
  const rows: string[][] = [];
  for (const c of htmlGrid(table.html ?? "")) (rows[c.row] ??= []).push(c.text);
  return rows;
};

describe("where a table of aligned lines starts and ends", () => {
  it("leaves out a line far above the rows that lines up with none of their cells", async () => {
    const tables = (await parse(await buildInvoicePdf())).filter((e) => e.type === "Table");
    expect(tables.map((t) => t.text).join(" ")).not.toContain("INVOICE");
    expect(rowsOf(tables[tables.length - 1] as ParsedElement)[0]).toEqual([
      "Description",
      "Quantity",
      "Price",
      "Amount",
    ]);
  });

  it("takes in the total set alone under its column", async () => {
    const tables = (await parse(await buildInvoicePdf())).filter((e) => e.type === "Table");
    const rows = rowsOf(tables[tables.length - 1] as ParsedElement);
    expect(rows).toHaveLength(6);
    expect(rows[5]).toEqual(["", "", "", "420.00"]);
  });
});
