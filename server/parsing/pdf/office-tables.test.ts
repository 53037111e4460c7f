import { describe, expect, it } from "vitest";
import {
  buildCentredGroupsOverFiguresPdf,
  buildCentredHeadingsPdf,
  buildCentredRowLabelsPdf,
  buildJoinedCellsPdf,
  buildRuledLayoutPdf,
  buildRuledParametersPdf,
  buildSmallRuledTablePdf,
  buildSpacedRowsTablePdf,
  buildStubBetweenHeadingsPdf,
  buildTableAcrossColumnsPdf,
} from "./office-table-fixtures";
import { parsePdf, tableRows } from "./test-tables";

describe("tables set by a word processor", () => {
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

  it("reads a ruled table of two rows of two cells on a page with no other table", async () => {
    const tables = (await parsePdf(await buildSmallRuledTablePdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0])).toEqual([
      ["Day", "Hours"],
      ["Weekdays", "9:00-17:00"],
    ]);
  });

  it("leaves a page laid out in a ruled grid of prose cells as text", async () => {
    const elements = await parsePdf(await buildRuledLayoutPdf());
    expect(elements.filter((e) => e.type === "Table")).toHaveLength(0);
    expect(elements.map((e) => e.text).join(" ")).toContain("might be developed and tested");
  });

  it("reads a ruled parameters table whose long cells are all in its description column", async () => {
    const tables = (await parsePdf(await buildRuledParametersPdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const rows = tableRows(tables[0]);
    expect(rows[0]).toEqual(["Name", "Type", "Description"]);
    expect(rows[1]).toEqual([
      "url",
      "string",
      "HTTPS address that receives the events. Plain HTTP is rejected outside test mode, and redirects are not followed.",
    ]);
    expect(rows).toHaveLength(4);
  });

  it("spans group headings over their columns, and the stub's heading alone on a line between them down both", async () => {
    const tables = (await parsePdf(await buildStubBetweenHeadingsPdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(tables[0]?.html).toContain(
      '<tr><th rowspan="2">Model</th><th colspan="2">Dataset A</th><th colspan="2">Dataset B</th></tr>',
    );
    expect(tableRows(tables[0])[1]).toEqual(["Acc.", "Loss", "Acc.", "Loss"]);
  });

  it("spans group headings centred over cells of figures set flush right, and headings centred down the header", async () => {
    const tables = (await parsePdf(await buildCentredGroupsOverFiguresPdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(tables[0]?.html).toContain(
      '<tr><th rowspan="2">Segment</th><th colspan="2">Revenue</th><th colspan="2">Operating profit</th>' +
        '<th rowspan="2">Margin</th></tr><tr><th>2023</th><th>2022</th><th>2023</th><th>2022</th></tr>',
    );
    expect(tableRows(tables[0])[2]).toEqual(["Industrial", "612.4", "548.9", "83.1", "66.0", "13.6%"]);
  });

  it("spans row labels centred down their groups, the last group a single row", async () => {
    const tables = (await parsePdf(await buildCentredRowLabelsPdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const html = tables[0]?.html ?? "";
    expect(html).toContain('<td rowspan="2">Sales</td><td>North</td>');
    expect(html).toContain('<td rowspan="3">Research</td><td>Lab A</td>');
    expect(html).toContain("<tr><td>Support</td><td>Desk</td><td>33</td>");
  });

  it("cuts a run that joins two cells where its words fall in two columns, past a heading's column it grazes", async () => {
    const tables = (await parsePdf(await buildJoinedCellsPdf())).filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const rows = tableRows(tables[0]);
    expect(rows[1]?.slice(-2)).toEqual(["45.02 EUR", "Depot"]);
    expect(rows[3]?.slice(-2)).toEqual(["2.18 EUR", "Depot"]);
  });

  it("joins a ruled table broken at the foot of a column to its rest at the head of the next, in reading order", async () => {
    const elements = await parsePdf(await buildTableAcrossColumnsPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0]).map((r) => r[0])).toEqual(["Site", "Lyon", "Porto", "Ghent", "Turin"]);
    const caption = elements.findIndex((e) => e.text.startsWith("Table 5"));
    expect(elements.indexOf(tables[0] as (typeof elements)[number])).toBe(caption + 1);
  });
});
