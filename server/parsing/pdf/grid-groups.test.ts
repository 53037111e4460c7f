import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import { buildRuledRowGroupsPdf } from "./form-fixtures";

describe("ruled tables: a label column ruled at its groups' edges only", () => {
  it("takes the labels into the table, each one cell spanning its group's rows", async () => {
    const bytes = await buildRuledRowGroupsPdf();
    const { elements } = await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" });
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const cells = htmlGrid(tables[0]?.html ?? "");
    expect(
      cells.filter((c) => /^\d{4}$/.test(c.text)).map(({ text, row, col, rowSpan }) => ({ text, row, col, rowSpan })),
    ).toEqual([
      { text: "1991", row: 1, col: 0, rowSpan: 3 },
      { text: "1996", row: 4, col: 0, rowSpan: 3 },
      { text: "2001", row: 7, col: 0, rowSpan: 3 },
    ]);
    expect(cells.find((c) => c.text === "Women" && c.row === 2)?.col).toBe(1);
    // The labels are read once, in the table, not as text beside it.
    expect(elements.filter((e) => e.text.includes("1996"))).toHaveLength(1);
  });
});
