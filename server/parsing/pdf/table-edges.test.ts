import { describe, expect, it } from "vitest";
import type { ParsedElement } from "../types";
import { buildInvoicePdf } from "./table-edges-fixtures";
import { parsePdf as parse, tableRows as rowsOf } from "./test-tables";

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

  it("does not take a line stacked over one cell for a heading over the rows", async () => {
    const elements = await parse(await buildInvoicePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(elements.find((e) => e.text.includes("www.example-systems.com"))?.type).not.toBe("Table");
  });
});
