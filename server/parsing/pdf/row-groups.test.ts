import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import type { ParsedElement } from "../types";
import { buildRowGroupsPdf } from "./form-fixtures";
import { buildNestedRowGroupsPdf } from "./unruled-layout-fixtures";

const tableOf = async (bytes: Uint8Array) => {
  const { elements } = await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" });
  const tables = elements.filter((e) => e.type === "Table");
  expect(tables).toHaveLength(1);
  return tables[0] as ParsedElement;
};

/** Each year's cell: the row it starts on and how many rows it spans. */
const yearCells = (table: ParsedElement) =>
  htmlGrid(table.html ?? "")
    .filter((c) => /^\d{4}$/.test(c.text))
    .map((c) => ({ text: c.text, row: c.row, col: c.col, rowSpan: c.rowSpan }));

describe("unruled tables: row labels over groups of body rows", () => {
  it("spans a label set on its group's first row over the rows under it", async () => {
    const table = await tableOf(await buildRowGroupsPdf("first"));
    expect(yearCells(table)).toEqual([
      { text: "1991", row: 1, col: 0, rowSpan: 3 },
      { text: "1996", row: 4, col: 0, rowSpan: 3 },
      { text: "2001", row: 7, col: 0, rowSpan: 3 },
    ]);
    expect(table.html).toContain(
      '<tr><td rowspan="3">1991</td><td>Men</td><td>40.0</td><td>5.1</td></tr><tr><td>Women</td>',
    );
  });

  it("spans a label centred on its group from the group's first row", async () => {
    const table = await tableOf(await buildRowGroupsPdf("centred"));
    expect(yearCells(table)).toEqual([
      { text: "1991", row: 1, col: 0, rowSpan: 3 },
      { text: "1996", row: 4, col: 0, rowSpan: 3 },
      { text: "2001", row: 7, col: 0, rowSpan: 3 },
    ]);
  });

  it("spans a label set between the middle rows of its group, without a row of its own", async () => {
    const table = await tableOf(await buildRowGroupsPdf("between"));
    expect(yearCells(table)).toEqual([
      { text: "1991", row: 1, col: 0, rowSpan: 4 },
      { text: "1996", row: 5, col: 0, rowSpan: 4 },
      { text: "2001", row: 9, col: 0, rowSpan: 4 },
    ]);
    expect(table.metadata).toMatchObject({ table_rows: 13, table_columns: 4 });
  });

  it("spans the labels of a second label column over their groups inside the first column's groups", async () => {
    const table = await tableOf(await buildNestedRowGroupsPdf());
    const models = htmlGrid(table.html ?? "")
      .filter((c) => c.col === 1 && c.row > 0 && c.text)
      .map((c) => ({ text: c.text, row: c.row, rowSpan: c.rowSpan }));
    expect(models).toEqual([
      { text: "DETR-NC", row: 1, rowSpan: 3 },
      { text: "DETR-NC", row: 4, rowSpan: 3 },
      { text: "Faster R-CNN", row: 7, rowSpan: 3 },
      { text: "DETR", row: 10, rowSpan: 3 },
    ]);
    expect(htmlGrid(table.html ?? "").find((c) => c.text === "Canonical")?.rowSpan).toBe(9);
  });
});
