import { describe, expect, it } from "vitest";
import { buildCentredHeadingsPdf, buildSpacedRowsTablePdf } from "./office-table-fixtures";
import { parsePdf, tableRows } from "./test-tables";

describe("unruled tables set by a word processor", () => {
  it("puts a heading centred over figures set flush right in the figures' column, not a column of its own", async () => {
    const tables = (await parsePdf(await buildCentredHeadingsPdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0])).toEqual([
      ["Grade", "Women", "Men", "Total", "Share (%)"],
      ["Grade A", "150", "202", "352", "42.6"],
      ["Grade B", "182", "16", "198", "91.9"],
      ["Grade C", "241", "186", "427", "56.4"],
      ["Grade D", "91", "64", "155", "58.7"],
    ]);
  });

  it("reads rows padded far apart as one table, not as two columns of prose", async () => {
    const tables = (await parsePdf(await buildSpacedRowsTablePdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const rows = tableRows(tables[0]);
    expect(rows[0]).toEqual(["Item", "Code", "Quantity", "Location"]);
    expect(rows[1]).toEqual(["Item A", "X-182", "40", "Shelf B north wing"]);
    expect(rows).toHaveLength(11);
  });
});
