import { describe, expect, it } from "vitest";
import { htmlGrid } from "../table-structure";
import { parsePdf } from "./test-tables";
import { row, start } from "./unruled-fixtures";

/** A table whose header and label cells wrap with a word broken at the line's end ("concen-" over "tration"). */
const buildHyphenatedCellsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 100, [
    { text: "Adsorbent", x: 72 },
    { text: "Initial dye concen-", x: 220 },
    { text: "Removal (%)", x: 360 },
  ]);
  row(page, regular, 10, 112, [{ text: "tration (mg/L)", x: 220 }]);
  let top = 130;
  for (const [label, dose, removal] of [
    ["Modified sawdust", "50", "92.5"],
    ["Raw and modi-", "100", "88.1"],
    ["fied mango seed", "", ""],
    ["Barley straw", "75", "99.0"],
    ["Iron oxide clay", "60", "81.3"],
  ] as const) {
    row(page, regular, 10, top, [
      { text: label, x: 72 },
      ...(dose ? [{ text: dose, x: 220 }] : []),
      ...(removal ? [{ text: removal, x: 360 }] : []),
    ]);
    top += label === "Raw and modi-" ? 11 : 16;
  }
  return doc.save();
};

describe("cells wrapped over two lines", () => {
  it("joins a word broken at the end of a header's or a label's line", async () => {
    const elements = await parsePdf(await buildHyphenatedCellsPdf());
    const table = elements.find((e) => e.type === "Table");
    const texts = htmlGrid(table?.html ?? "").map((c) => c.text);
    expect(texts).toContain("Initial dye concentration (mg/L)");
    expect(texts).toContain("Raw and modified mango seed");
  });
});
