import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import type { ParsedElement } from "../types";
import {
  buildBrokenWordsPdf,
  buildCentredStubHeadingPdf,
  buildHeaderOverGutterPdf,
  buildChartLegendPdf,
  buildNumberedEquationsPdf,
  buildTableAcrossGutterPdf,
  buildTrialTablePdf,
} from "./unruled-rule-fixtures";
import {
  buildCaptionBesideJustifiedPdf,
  buildJustifiedColumnPdf,
  buildFractionEquationPdf,
  buildHeadingInGapPdf,
  buildJustifiedReferencePdf,
  buildLongGroupLabelPdf,
  buildSpannedPatientHeaderPdf,
  buildTableBesideProsePdf,
  buildTiledGroupHeadingsPdf,
} from "./unruled-layout-fixtures";

const parse = async (bytes: Uint8Array) =>
  (await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" })).elements;

const rowsOf = (table: ParsedElement) => {
  const rows: string[][] = [];
  for (const c of htmlGrid(table.html ?? "")) (rows[c.row] ??= []).push(c.text);
  return rows;
};

const onlyTable = async (bytes: Uint8Array) => {
  const tables = (await parse(bytes)).filter((e) => e.type === "Table");
  expect(tables).toHaveLength(1);
  return tables[0] as ParsedElement;
};

describe("unruled tables: the header apart from the body", () => {
  it("reads means with significance letters as figures, so the wrapped heading above them is one header row", async () => {
    const table = await onlyTable(await buildTrialTablePdf("letters"));
    expect(rowsOf(table)[0]).toEqual(["Variety", "Treatment", "Grain yield (t/ha)", "Seed setting (%)"]);
    expect(table.html).toContain("<td>22.51a</td>");
  });

  it("reads means with their spread as figures, so the wrapped heading above them is one header row", async () => {
    const table = await onlyTable(await buildTrialTablePdf("spread"));
    expect(rowsOf(table)[0]).toEqual(["Variety", "Treatment", "Grain yield (t/ha)", "Seed setting (%)"]);
    expect(table.html).toContain("<td>22.5 ± 0.4</td>");
  });

  it("keeps a stub heading centred between the lines of the column headings in the header", async () => {
    const table = await onlyTable(await buildCentredStubHeadingPdf());
    expect(rowsOf(table)).toEqual([
      ["Dataset", "Total tables investigated", "Tables with a header"],
      ["SciTSR", "10,431", "342"],
      ["PubTabNet", "422,491", "100,159"],
      ["FinTabNet", "70,028", "25,637"],
    ]);
    expect(table.html).toContain("<th>Dataset</th>");
  });
});

describe("unruled tables: a header set tighter than its rows", () => {
  it("takes a heading centred over two columns into the table, though further above than the header wraps", async () => {
    const table = await onlyTable(await buildSpannedPatientHeaderPdf());
    expect(table.html).toContain('<th colspan="2">Core amino acid</th>');
  });

  it("keeps a footnote mark set small after a heading in that heading's cell", async () => {
    const rows = rowsOf(await onlyTable(await buildSpannedPatientHeaderPdf()));
    const header = rows.find((r) => r.includes("Patient no")) ?? [];
    expect(header).toEqual(["Patient no", "Genotype", "Viral load (IU/ml)", "70", "91", "End of treatment response a"]);
    expect(rows.every((r) => r.length <= 6)).toBe(true);
  });
});

describe("unruled tables: group headings side by side", () => {
  it("spans headings that each sit centred over a run of three columns, the runs side by side", async () => {
    const table = await onlyTable(await buildTiledGroupHeadingsPdf());
    const groups = htmlGrid(table.html ?? "").filter((c) => ["Total", "Public", "Private"].includes(c.text));
    expect(groups.map((c) => [c.text, c.row, c.col, c.colSpan])).toEqual([
      ["Total", 0, 1, 3],
      ["Public", 0, 4, 3],
      ["Private", 0, 7, 3],
    ]);
  });
});

describe("unruled tables: a heading alone over the gap between two columns", () => {
  it("spans the heading over columns instead of opening an empty column", async () => {
    const table = await onlyTable(await buildHeadingInGapPdf());
    const cells = htmlGrid(table.html ?? "");
    expect(Math.max(...cells.map((c) => c.col + c.colSpan))).toBe(6);
    expect((cells.find((c) => c.text === "Grade")?.colSpan ?? 1) > 1).toBe(true);
  });
});

describe("unruled tables: a group label between the header and the body", () => {
  it("does not bridge a long line of justified prose between lines stretched into pieces", async () => {
    const elements = await parse(await buildJustifiedReferencePdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
  });

  it("keeps a long group label at the rows' pitch inside the table, the header above it too", async () => {
    const rows = rowsOf(await onlyTable(await buildLongGroupLabelPdf()));
    expect(rows[0]).toEqual(["Data Platform", "Number of Features", "Number of tumors"]);
    expect(rows.flat()).toContain("Number of features and tumors in different data platforms");
    expect(rows).toHaveLength(6);
  });
});

describe("unruled tables: what is no table", () => {
  it("leaves a chart's value axis beside its legend as text", async () => {
    const elements = await parse(await buildChartLegendPdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.map((e) => e.text).join(" ")).toContain("Portugal");
  });

  it("leaves a column of justified prose whose stretched lines stand apart word by word as text", async () => {
    const elements = await parse(await buildJustifiedColumnPdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.map((e) => e.text).join(" ")).toContain("irony");
  });

  it("leaves a caption beside justified prose cut into lone words at its wide spaces as text", async () => {
    const elements = await parse(await buildCaptionBesideJustifiedPdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.map((e) => e.text).join(" ")).toContain("reduction");
  });

  it("leaves a single numbered display equation, its fractions over and under its line, as text", async () => {
    const elements = await parse(await buildFractionEquationPdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.map((e) => e.text).join(" ")).toContain("(14)");
  });

  it("leaves numbered display equations, their fractions over two lines, as text", async () => {
    const elements = await parse(await buildNumberedEquationsPdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.map((e) => e.text).join(" ")).toContain("= ksyn + ka * A - CL * M (2)");
  });
});

describe("unruled tables: cells wrapped at the rows' own spacing", () => {
  it("joins the lines of a heading whose word is broken at a line's end, and the line going on under them", async () => {
    const words = rowsOf(await onlyTable(await buildBrokenWordsPdf("heading")));
    expect(words[0]).toEqual(["Stage of pharmacokinetic modeling", "Data used", "Modeling activities"]);
    expect(words).toHaveLength(4);
  });

  it("joins the lines of a row label whose word is broken at a line's end", async () => {
    const estimates = rowsOf(await onlyTable(await buildBrokenWordsPdf("label")));
    expect(estimates.map((r) => r[0])).toEqual([
      "Parameter",
      "ka (1/h)",
      "Relative bioavailability (F)",
      "F for 6 g dose",
      "F-dose slope",
    ]);
  });
});

describe("unruled tables: across a two-column page", () => {
  it("reads a table whose cells leave the gutter free as one table across both columns, its header's lines too", async () => {
    const table = await onlyTable(await buildTableAcrossGutterPdf());
    expect(rowsOf(table)).toEqual([
      ["Dataset", "All Tables", "Seen Pages", "Cells", "Rows", "Share"],
      ["SciTSR", "10,431", "342", "54", "15.79%", "0.52%"],
      ["PubTabNet", "422,491", "100,159", "58,747", "58.65%", "13.90%"],
      ["FinTabNet", "70,028", "25,637", "25,348", "98.87%", "36.20%"],
      ["Ours", "761,262", "153,705", "0", "0%", "0%"],
    ]);
  });

  it("keeps the header's lines above a heading that reaches over the gutter in the table", async () => {
    const elements = await parse(await buildHeaderOverGutterPdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const header = rowsOf(tables[0] as ParsedElement)[0];
    expect(header).toEqual(expect.arrayContaining(["Dataset", "Input Modality", "Tables", "Cell Cells", "Row Span"]));
    expect(elements.filter((e) => e.type !== "Table" && /Dataset|Input/.test(e.text))).toEqual([]);
  });

  it("reads a captioned table that fills one column apart from the prose of the other column", async () => {
    const elements = await parse(await buildTableBesideProsePdf());
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const table = tables[0] as ParsedElement;
    expect(rowsOf(table).every((r) => r.length === 3)).toBe(true);
    expect(table.text).not.toContain("parsers");
    expect(elements.some((e) => e.type !== "Table" && e.text.includes("The results below compare"))).toBe(true);
  });
});
