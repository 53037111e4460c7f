import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import { buildPartlyRuledPdf, buildRuledExhibitPdf } from "./test-fixtures";

describe("ruled tables: rows ruled in that are not the table's", () => {
  it("reads the caption and note rows apart and keeps wrapped column headings whole", async () => {
    const bytes = await buildRuledExhibitPdf();
    const { elements } = await partitionDocument({ bytes, fileName: "exhibit.pdf", fileType: "pdf", method: "basic" });
    const kinds = elements.filter((e) => e.type !== "PageNumber").map((e) => [e.type, e.text.slice(0, 20)]);
    expect(kinds).toEqual([
      ["FigureCaption", "Exhibit 4 Schools id"],
      ["Table", expect.any(String)],
      ["NarrativeText", "Exhibit reads: 34 pe"],
      ["NarrativeText", "The state systems an"],
    ]);
    const table = elements.find((e) => e.type === "Table");
    expect(table?.html).toBe(
      "<table>" +
        "<tr><th>Designation</th><th>Schools identified (n = 469)</th><th>Schools not identified (n = 918)</th></tr>" +
        "<tr><td>Low-performing</td><td>34%</td><td>3%</td></tr>" +
        "<tr><td>High-performing</td><td>2%</td><td>18%</td></tr>" +
        "<tr><td>Other</td><td>14%</td><td>9%</td></tr>" +
        "</table>",
    );
    expect(table?.metadata).toMatchObject({ table_rows: 4, table_columns: 3 });
  });
});

describe("ruled tables: columns outside the vertical lines", () => {
  it.each(["all", "header"] as const)(
    "reads a table whose rules reach past its vertical lines as one table with those columns (%s rules reach the labels)",
    async (labelRules) => {
      const bytes = await buildPartlyRuledPdf(labelRules);
      const { elements } = await partitionDocument({ bytes, fileName: "partly.pdf", fileType: "pdf", method: "basic" });
      const tables = elements.filter((e) => e.type === "Table");
      expect(tables).toHaveLength(1);
      const rows = htmlGrid(tables[0]?.html ?? "").reduce<string[][]>((acc, c) => {
        (acc[c.row] ??= []).push(c.text);
        return acc;
      }, []);
      expect(rows).toEqual([
        ["", "Finland", "EU-15", "EU-25"],
        ["1996", "3.7", "1.6", "1.7"],
        ["2000", "5.0", "3.9", "3.9"],
        ["2005", "1.5", "1.5", "1.6"],
        ["2006", "3.5", "2.0", "2.1"],
      ]);
      expect(tables[0]?.metadata).toMatchObject({ table_source: "ruling-lines", table_columns: 4 });
    },
  );
});
