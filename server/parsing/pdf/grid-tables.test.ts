import { beforeAll, describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import type { ParsedElement } from "../types";
import { findGridTables } from "./grid-tables";
import { buildGridTablePdf } from "./test-fixtures";

/** A 10 pt Helvetica run of the text layer at (left, top), 6 pt a character. */
const run = (text: string, left: number, top: number) => ({
  text,
  left,
  right: left + 6 * text.length,
  top,
  bottom: top + 10,
  baseline: top + 8,
  fontSize: 10,
  fontName: "Helvetica",
  mono: false,
});

const EXPECTED_HTML =
  "<table>" +
  '<tr><th rowspan="2">State</th><th colspan="2">Counts</th><th rowspan="2">Flag</th></tr>' +
  "<tr><th>2014</th><th>2015</th></tr>" +
  "<tr><td>New South Wales</td><td>1,234</td><td>0.955</td><td>X</td></tr>" +
  "<tr><td>Ohio</td><td>2</td><td>4</td><td></td></tr>" +
  "<tr><td>Utah</td><td>17</td><td></td><td>X</td></tr>" +
  "</table>";

describe("ruled tables from the text layer and the PDF's lines", () => {
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = await buildGridTablePdf();
  });

  // Every method reads a born-digital page's tables from its text layer: the same table, spans and all.
  for (const method of ["basic", "hi_res", "hi_res_ft", "auto"] as const) {
    it(`${method}: spans, a rotated and a two-row header, a wrapped cell, an empty column; caption and note outside`, async () => {
      const { elements } = await partitionDocument({ bytes, fileName: "grid.pdf", fileType: "pdf", method });
      const tables = elements.filter((e) => e.type === "Table");
      expect(tables).toHaveLength(1);
      const table = tables[0] as ParsedElement;
      expect(table.html).toBe(EXPECTED_HTML);
      expect(table.metadata).toMatchObject({ table_rows: 5, table_columns: 4, table_source: "ruling-lines" });
      const others = elements.filter((e) => e.type !== "Table").map((e) => [e.type, e.text]);
      expect(others).toEqual([
        ["FigureCaption", "Table 2: Checks by state and year."],
        ["NarrativeText", "The counts are checks run in each state, as reported by the states themselves."],
        // A framed note is a box, not a one-cell table.
        ["NarrativeText", "Note: figures for 2015 are provisional until March."],
        ["PageNumber", "1"],
      ]);
      // The caption sits in the reading order before the table.
      expect(elements.findIndex((e) => e.type === "FigureCaption")).toBeLessThan(elements.indexOf(table));
    });
  }

  it("a box, two parallel rules or a grid around one word is no table", () => {
    const box = {
      horizontal: [
        { x0: 72, x1: 300, y: 100 },
        { x0: 72, x1: 300, y: 200 },
      ],
      vertical: [
        { x: 72, y0: 100, y1: 200 },
        { x: 300, y0: 100, y1: 200 },
      ],
    };
    const runs = [run("A framed sidebar", 80, 110), run("with two lines", 80, 130)];
    expect(findGridTables({ runs, rotated: [], ...box }).tables).toEqual([]);
    // A 2×2 grid with one word in it: a drawing, not a table.
    const grid = {
      horizontal: [...box.horizontal, { x0: 72, x1: 300, y: 150 }],
      vertical: [...box.vertical, { x: 186, y0: 100, y1: 200 }],
    };
    expect(findGridTables({ runs: [run("Logo", 80, 110)], rotated: [], ...grid }).tables).toEqual([]);
    const table = findGridTables({
      runs: [run("Name", 80, 110), run("Age", 190, 110), run("Ada", 80, 160), run("36", 190, 160)],
      rotated: [],
      ...grid,
    });
    expect(table.tables.map((t) => t.cells.map((c) => c.text))).toEqual([["Name", "Age", "Ada", "36"]]);
    expect(table.takenRuns.size).toBe(4);
  });

  it("one ruled row is a table when drawn lines part its filled cells, and not when it heads another grid", () => {
    // A Word table of one row: "One | Row | Table", each cell boxed.
    const xs = [72, 222, 372, 522];
    const row = (top: number, bottom: number) => ({
      horizontal: [top, bottom].map((y) => ({ x0: 72, x1: 522, y })),
      vertical: xs.map((x) => ({ x, y0: top, y1: bottom })),
    });
    const words = (texts: string[], top: number) => texts.map((t, i) => run(t, (xs[i] ?? 0) + 5, top));
    const cells = (found: ReturnType<typeof findGridTables>) => found.tables.map((t) => t.cells.map((c) => c.text));
    const one = row(100, 120);
    expect(cells(findGridTables({ runs: words(["One", "Row", "Table"], 105), rotated: [], ...one }))).toEqual([
      ["One", "Row", "Table"],
    ]);
    // A form's label beside its blank field: not a table.
    expect(findGridTables({ runs: words(["Name", "Date"], 105), rotated: [], ...one }).tables).toEqual([]);
    // Ruled apart from the table under it, a header row is that table's, not a table of its own.
    const body = {
      horizontal: [124, 144, 164].map((y) => ({ x0: 72, x1: 522, y })),
      vertical: xs.map((x) => ({ x, y0: 124, y1: 164 })),
    };
    const headed = findGridTables({
      runs: [
        ...words(["Cohort", "Head Start", "Control"], 105),
        ...words(["3-year-olds", "1,530", "1,029"], 129),
        ...words(["4-year-olds", "1,253", "855"], 149),
      ],
      rotated: [],
      horizontal: [...one.horizontal, ...body.horizontal],
      vertical: [...one.vertical, ...body.vertical],
    });
    expect(cells(headed)).toEqual([["3-year-olds", "1,530", "1,029", "4-year-olds", "1,253", "855"]]);
  });

  it("a header row ruled around its outline only still has one cell per column", () => {
    // Word's table styles: the header row has no inner vertical borders (word365_structure.pdf of pdfplumber).
    const ys = [100, 120, 140, 160];
    const xs = [72, 222, 372, 522];
    const horizontal = ys.map((y) => ({ x0: 72, x1: 522, y }));
    const vertical = [
      { x: 72, y0: 100, y1: 160 },
      { x: 522, y0: 100, y1: 160 },
      { x: 222, y0: 120, y1: 160 },
      { x: 372, y0: 120, y1: 160 },
    ];
    const runs = [
      ...["Head 1", "Head 2", "Head 3"].map((t, i) => run(t, (xs[i] ?? 0) + 5, 105)),
      ...["Row 1", "Lark", "Elf"].map((t, i) => run(t, (xs[i] ?? 0) + 5, 125)),
      ...["Row 2", "Weasel", "Imp"].map((t, i) => run(t, (xs[i] ?? 0) + 5, 145)),
    ];
    const [table] = findGridTables({ runs, rotated: [], horizontal, vertical }).tables;
    expect(table?.cells.filter((c) => c.row === 0).map((c) => [c.text, c.colSpan])).toEqual([
      ["Head 1", 1],
      ["Head 2", 1],
      ["Head 3", 1],
    ]);
    // A title across the whole header row stays one spanning cell.
    const titled = [run("Results by region", 200, 105), ...runs.slice(3)];
    const [spanning] = findGridTables({ runs: titled, rotated: [], horizontal, vertical }).tables;
    expect(spanning?.cells.filter((c) => c.row === 0).map((c) => [c.text, c.colSpan])).toEqual([
      ["Results by region", 3],
    ]);
  });

  it("a bulleted list in a ruled cell stays in its cell; lines in step without bullets are rows", () => {
    // Word: a fully ruled table, a bulleted list in one cell and a numbered list beside it (pandoc's test documents).
    const horizontal = [100, 120, 170].map((y) => ({ x0: 72, x1: 372, y }));
    const vertical = [72, 222, 372].map((x) => ({ x, y0: 100, y1: 170 }));
    const header = [run("Cell with text", 77, 105), run("Cell with text", 227, 105)];
    const body = (first: string[]) =>
      first.flatMap((t, i) => [
        ...(t.startsWith("• ")
          ? [run("•", 82, 125 + i * 14), run(t.slice(2), 92, 125 + i * 14)]
          : [run(t, 77, 125 + i * 14)]),
        run(`${i + 1}. ${["Cell with", "A", "Numbered list."][i]}`, 232, 125 + i * 14),
      ]);
    const cellsOf = (runs: ReturnType<typeof run>[]) =>
      findGridTables({ runs, rotated: [], horizontal, vertical }).tables[0]?.cells.map((c) => c.text);
    expect(cellsOf([...header, ...body(["• Cell with", "• A", "• Bullet list"])])).toEqual([
      "Cell with text",
      "Cell with text",
      "• Cell with • A • Bullet list",
      "1. Cell with 2. A 3. Numbered list.",
    ]);
    // The same lines without bullets: rows the drawing did not rule.
    expect(cellsOf([...header, ...body(["Alpha", "Beta", "Gamma"])])).toHaveLength(8);
  });

  // "(000)" under a heading is its unit, thousands, not a figure in brackets.
  it.each([
    ["a year", "(census)"],
    ["a unit of thousands", "(000)"],
  ])("a ruled header wrapped over three lines with %s in it is one header row, above the body's rows", (_, unit) => {
    // eu-004 of ICDAR 2013 (tuning): "per capita / GNP ($000) / 1995" over a column, the body rows unruled.
    const xs = [72, 200, 320, 440];
    const horizontal = [100, 142, 200].map((y) => ({ x0: 72, x1: 440, y }));
    const vertical = xs.map((x) => ({ x, y0: 100, y1: 200 }));
    const cell = (col: number, top: number, text: string) => run(text, (xs[col] ?? 0) + 5, top);
    const runs = [
      ...[
        ["per capita", "population"],
        ["GNP ($000)", "1995 (mn)"],
        ["1995", unit],
      ].flatMap(([a, b], line) => [cell(1, 103 + 13 * line, a ?? ""), cell(2, 103 + 13 * line, b ?? "")]),
      ...[
        ["Germany", "27.5", "81.9"],
        ["France", "25.0", "58.1"],
        ["Italy", "19.0", "57.3"],
      ].flatMap((row, r) => row.map((text, col) => cell(col, 146 + 16 * r, text))),
    ];
    const [table] = findGridTables({ runs, rotated: [], horizontal, vertical }).tables;
    const rows = Array.from({ length: table?.rows ?? 0 }, (_, r) =>
      (table?.cells ?? []).filter((c) => c.row === r).map((c) => c.text),
    );
    expect(rows).toEqual([
      ["", "per capita GNP ($000) 1995", `population 1995 (mn) ${unit}`],
      ["Germany", "27.5", "81.9"],
      ["France", "25.0", "58.1"],
      ["Italy", "19.0", "57.3"],
    ]);
  });
});
