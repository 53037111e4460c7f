import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import type { ParsedElement } from "../types";
import {
  buildContentsPdf,
  buildContinuedTablePdf,
  buildFigureAndGroupsPdf,
  buildGroupedHeaderPdf,
  buildLabelColumnsTablePdf,
  buildLabelledListPdf,
  buildLeaderTablePdf,
  buildListOfTablesPdf,
  buildNarrowTableBeforeProsePdf,
  buildResultsTablePdf,
  buildScriptLabelsPdf,
  buildSideCaptionTablePdf,
  buildSignedFiguresTablePdf,
  buildTableBesideColumnPdf,
  buildTwoColumnPdf,
  buildWrappedLabelsPdf,
  buildWrappedMiddleHeadingPdf,
} from "./unruled-fixtures";

const parse = async (bytes: Uint8Array) =>
  (await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" })).elements;

const rowsOf = (table: ParsedElement) => {
  const cells = htmlGrid(table.html ?? "");
  const rows: string[][] = [];
  for (const c of cells) (rows[c.row] ??= []).push(c.colSpan > 1 ? `${c.text}{${c.colSpan}}` : c.text);
  return rows;
};

describe("unruled tables from text positions", () => {
  it("splits close numeric columns, keeps header and body together, joins a wrapped header, spans a heading", async () => {
    const elements = await parse(await buildResultsTablePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const table = tables[0] as ParsedElement;
    expect(rowsOf(table)).toEqual([
      ["", "", "Precision{2}", ""],
      ["Parser", "Pages", "A", "B", "Time (s)"],
      ["Quarry", "120", "6", "6", "1.5"],
      ["Baseline", "120", "4", "2", "3.25"],
      ["Other parser", "98", "5", "3", "2.0"],
      ["Reference", "120", "7", "7", "9.75"],
    ]);
    expect(table.html).toContain('<th colspan="2">Precision</th>');
    expect(table.metadata).toMatchObject({ table_rows: 6, table_columns: 5, table_source: "text-positions" });
  });

  it("leaves the section heading under the table out of it", async () => {
    const elements = await parse(await buildResultsTablePdf());
    const table = elements.findIndex((e) => e.type === "Table");
    const heading = elements.findIndex((e) => e.text.includes("Conclusion"));
    expect(heading).toBeGreaterThan(table);
    expect(elements[heading]?.type).toBe("Title");
    expect(elements[table]?.text).not.toContain("Conclusion");
  });

  it("ends a narrow table where the paragraph under it goes on past its edges, beside a margin note", async () => {
    const elements = await parse(await buildNarrowTableBeforeProsePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(rowsOf(tables[0] as ParsedElement)).toEqual([
      ["Name", "Value"],
      ["This", "11"],
      ["That", "2"],
      ["Other", "7"],
    ]);
    const after = elements
      .filter((e) => e.type !== "Table")
      .map((e) => e.text)
      .join(" ");
    expect(after).toContain("Larger figures such as the first one");
    expect(after).toContain("with breaking the columns");
  });

  it("keeps the header apart from the first body row when several label columns come before the figures", async () => {
    const elements = await parse(await buildLabelColumnsTablePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const rows = rowsOf(tables[0] as ParsedElement);
    expect(rows[0]).toEqual(["Test Data", "Model", "Table Category", "Accuracy", "Recall", "F1"]);
    expect(rows[1]).toEqual(["Non-Canonical", "DETR-NC", "Simple", "0.8678", "0.9872", "0.9859"]);
    expect(rows).toHaveLength(7);
    expect(tables[0]?.html).toContain("<thead><tr><th>Test Data</th>");
  });

  it("keeps a minus sign set in another font against its figures in one word, as the line's text does", async () => {
    const elements = await parse(await buildSignedFiguresTablePdf());
    const table = elements.find((e) => e.type === "Table") as ParsedElement;
    expect(rowsOf(table)).toEqual([
      ["Zeolite", "Transfer", "Dispersion"],
      ["BEA", "–148", "–129"],
      ["BEC", "–123", "–151"],
      ["BOG", "–140", "140"],
      ["CON", "–132", "–149"],
    ]);
  });

  it("reads a caption set in a narrow column beside the table's first rows as text before it, not as cells", async () => {
    const elements = await parse(await buildSideCaptionTablePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(rowsOf(tables[0] as ParsedElement)).toEqual([
      ["Variable", "N", "Mean", "SD"],
      ["Age (years)", "34", "41.3", "10.4"],
      ["Weight (kg)", "34", "83.5", "20.2"],
      ["Height (cm)", "34", "173", "13.3"],
      ["BMI (kg/m2)", "34", "27.6", "4.7"],
      ["Albumin (g/dL)", "34", "3.83", "0.403"],
    ]);
    const caption = elements.findIndex((e) => e.text.startsWith("Table 2"));
    expect(elements[caption]?.text).toBe("Table 2 Demographics and characteristics of the study population (n = 34)");
    expect(caption).toBeLessThan(elements.indexOf(tables[0] as ParsedElement));
  });

  it("keeps a list of tables' numbers beside their titles: a caption column holds one caption", async () => {
    const elements = await parse(await buildListOfTablesPdf());
    for (const [label, title] of [
      ["Table 1", "Demographics of the study population"],
      ["Table 4", "Laboratory values at baseline"],
    ] as const) {
      const holder = elements.find((e) => e.text.includes(title));
      expect(holder?.text).toMatch(new RegExp(`${label}\\s+${title}`));
    }
  });

  it("reads a table continued on the next page as one table with both pages", async () => {
    const elements = await parse(await buildContinuedTablePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const table = tables[0] as ParsedElement;
    expect(table.metadata?.page_numbers).toEqual([1, 2]);
    const rows = rowsOf(table);
    // One header, then every region once: the header repeated on page 2 is dropped.
    expect(rows[0]).toEqual(["Region", "Sites", "Visits"]);
    expect(rows.filter((r) => r[0] === "Region")).toHaveLength(1);
    expect(rows.at(-1)).toEqual(["Region 48", "58", "1336"]);
    expect(elements.some((e) => e.text === "All regions reported their visits.")).toBe(true);
  });

  it("reads a two-column page of prose as text, not a table", async () => {
    const elements = await parse(await buildTwoColumnPdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.filter((e) => e.type === "NarrativeText").length).toBeGreaterThanOrEqual(2);
  });

  it("recognises a table of contents as a two-column Table, and no table of icons", async () => {
    const elements = await parse(await buildContentsPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const contents = tables[0] as ParsedElement;
    expect(contents.metadata).toMatchObject({ table_kind: "contents" });
    expect(rowsOf(contents)).toEqual([
      ["1 Introduction", "1"],
      ["2 Installing Quarry", "4"],
      ["3 Parsing documents", "9"],
      ["4 Searching", "15"],
      ["5 Troubleshooting", "22"],
    ]);
  });

  it("reads a diagram's labels under a figure caption as text; row labels alone open the body, inside the table", async () => {
    const elements = await parse(await buildFigureAndGroupsPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(elements.map((e) => e.text).join(" ")).toContain("State budget");
    expect(rowsOf(tables[0] as ParsedElement)).toEqual([
      ["Indicator", "Weight"],
      ["All indicators (n = 5):", ""],
      ["Effectiveness", ""],
      ["Employment", "40"],
      ["Further studies", "15"],
      ["Staff", ""],
      ["Formal qualifications", "11"],
      ["Staff development", "6"],
    ]);
    expect((tables[0] as ParsedElement).html).toContain("<thead><tr><th>Indicator</th><th>Weight</th></tr></thead>");
  });

  it("reads row labels beside a column of sentences row by row, not as two page columns", async () => {
    const elements = await parse(await buildLabelledListPdf());
    const text = elements.map((e) => e.text).join("\n");
    const at = (s: string) => text.indexOf(s);
    for (const s of [
      "Clarity or relevance",
      "Reported as not relevant",
      "Response range",
      "A high share",
      "Recall period",
    ])
      expect(at(s), s).toBeGreaterThanOrEqual(0);
    expect(at("Clarity or relevance")).toBeLessThan(at("Reported as not relevant"));
    expect(at("Reported as not relevant")).toBeLessThan(at("Response range"));
    expect(at("Response range")).toBeLessThan(at("A high share"));
    expect(at("The item duplicates")).toBeLessThan(at("Recall period"));
  });
});

describe("unruled tables: wrapped cells", () => {
  it("joins a row label wrapped onto a second line to its row, whichever line holds the figures", async () => {
    const elements = await parse(await buildWrappedLabelsPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(rowsOf(tables[0] as ParsedElement)).toEqual([
      ["Item", "2019", "2020"],
      ["Revenue", "120", "130"],
      ["Net income from continuing operations", "40", "45"],
      ["Other comprehensive Income", "12", "14"],
      ["Staff costs", "18", "19"],
      ["Total", "190", "208"],
    ]);
  });
});

describe("unruled tables: dot leaders", () => {
  it("keeps a label's dot leaders in its cell and reads rows of figures after leaders as a table, not contents", async () => {
    const elements = await parse(await buildLeaderTablePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const table = tables[0] as ParsedElement;
    expect(table.metadata?.table_kind).toBeUndefined();
    const rows = rowsOf(table).map((r) => r.filter(Boolean));
    expect(rows.map((r) => r.slice(1))).toEqual([
      ["Total", "Male", "Female"],
      ["102,140", "90,012", "12"],
      ["240,912", "205,010", "35"],
      ["84,310", "66,720", "47"],
      ["217,414", "178,101", "59"],
      ["173,725", "98,437", "75"],
    ]);
    expect(rows.map((r) => r[0]?.replace(/[\s.]+$/, "").replace(/\{\d+\}$/, ""))).toEqual([
      "Offense",
      "Robbery",
      "Burglary",
      "Stolen property 1",
      "Vandalism",
      "Fraud",
    ]);
  });
});

describe("unruled tables: spanning headers", () => {
  it("spans a heading centred over a group of columns it is narrower than, and a row label heading over the header rows", async () => {
    const elements = await parse(await buildGroupedHeaderPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const table = tables[0] as ParsedElement;
    expect(table.html).toContain(
      '<thead><tr><th rowspan="2">Region</th><th colspan="3">Persons</th><th colspan="2">Share (%)</th></tr>' +
        "<tr><th>Male</th><th>Female</th><th>All</th><th>Urban</th><th>Rural</th></tr></thead>",
    );
    expect(rowsOf(table).slice(2)).toEqual([
      ["North", "1,204", "1,310", "2,514", "61", "39"],
      ["South", "980", "1,022", "2,002", "48", "52"],
      ["East", "1,511", "1,604", "3,115", "70", "30"],
      ["West", "702", "751", "1,453", "35", "65"],
    ]);
    expect(table.metadata).toMatchObject({ table_rows: 6, table_columns: 6 });
  });

  it("keeps a wrapped heading aligned with the line under it in its own column, not spread over its neighbours", async () => {
    const elements = await parse(await buildWrappedMiddleHeadingPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const table = tables[0] as ParsedElement;
    expect(table.html).not.toContain("colspan");
    expect(rowsOf(table)[0]).toEqual(["Year", "Sales", "Net income", "Staff"]);
  });

  it("keeps superscripts and subscripts of row labels in their own row and cell, beside a column of taller prose", async () => {
    const elements = await parse(await buildScriptLabelsPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const rows = rowsOf(tables[0] as ParsedElement);
    expect(rows.every((r) => r.length === 3)).toBe(true);
    expect(rows.slice(0, 6)).toEqual([
      ["Parameter", "Native", "Soaked"],
      ["No. of crystals", "10.5", "20.25"],
      ["Multiplicity", "11.5", "21.25"],
      ["Wilson B factor (Å2)", "12.5", "22.25"],
      ["Completeness (%)", "13.5", "23.25"],
      ["CC1/2", "14.5", "24.25"],
    ]);
    expect(rows[8]?.[0]).toMatch(/^SO4 ?2-$/);
    expect(rows.map((r) => r[0])).toContain("B factors (Å2)");
    expect(rows).toHaveLength(12);
  });

  it("finds the columns of a page whose left column holds a table on the same rows as the right column's prose", async () => {
    const elements = await parse(await buildTableBesideColumnPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const rows = rowsOf(tables[0] as ParsedElement);
    expect(rows).toHaveLength(21);
    expect(rows[0]).toEqual(["Source", "DF", "SS", "MS", "F", "p"]);
    expect(rows[1]).toEqual(["Term 1", "1", "1.250", "0.5000", "2.00", "0.000"]);
    expect(rows.every((r) => r.length === 6)).toBe(true);
    expect(tables[0]?.text).not.toContain("parsers");
    // The right column's prose is read as paragraphs, whole.
    const prose = elements.filter((e) => e.type === "NarrativeText" && e.text.includes("parsers"));
    expect(prose.length).toBeGreaterThanOrEqual(2);
  });
});
