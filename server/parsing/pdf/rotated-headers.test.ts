import { describe, expect, it } from "vitest";
import { buildRotatedHeaderPdf } from "./rotated-header-fixtures";
import { withRotatedHeaders } from "./rotated-headers";
import { parsePdf, tableRows } from "./test-tables";
import type { RotatedText, Run } from "./types";

const BODY = [
  ["Baseline", "71.2", "68.4", "70.1", "69.2"],
  ["Ours", "78.9", "77.0", "76.5", "76.7"],
  ["Ours + pretraining", "81.3", "80.2", "79.8", "80.0"],
];

const run = (text: string, left: number, baseline: number): Run => ({
  text,
  left,
  right: left + 6 * text.length,
  top: baseline - 7.5,
  bottom: baseline + 2.5,
  baseline,
  fontSize: 10,
  fontName: "Helvetica",
  mono: false,
});

const turned = (text: string, left: number, foot: number): RotatedText => ({
  text,
  left,
  right: left + 12,
  top: foot - 5 * text.length,
  bottom: foot,
  fontSize: 10,
});

describe("unruled tables: turned column headings", () => {
  for (const angle of [90, 270] as const) {
    it(`reads headings turned ${angle}° over the value columns as the header cells, one per column`, async () => {
      const elements = await parsePdf(await buildRotatedHeaderPdf({ angle }));
      const tables = elements.filter((e) => e.type === "Table");
      expect(tables).toHaveLength(1);
      expect(tableRows(tables[0])).toEqual([["Model", "Accuracy", "Precision", "Recall", "F1 score"], ...BODY]);
      expect(tables[0]?.html).toContain("<th>Precision</th>");
      // The headings are in the table only, not again after the page's flow.
      expect(elements.filter((e) => e.text.includes("Recall") && e.type !== "Table")).toEqual([]);
    });
  }

  it("reads a heading turned over two lines as one cell, in reading order", async () => {
    const [table] = (await parsePdf(await buildRotatedHeaderPdf({ wrapped: true }))).filter((e) => e.type === "Table");
    expect(tableRows(table)[0]).toEqual(["Model", "Top-1 accuracy", "Precision", "Recall", "F1 score"]);
  });

  it("keeps a stamp up the margin as turned text after the page's flow", async () => {
    const elements = await parsePdf(await buildRotatedHeaderPdf());
    const last = elements[elements.length - 1];
    expect(last?.text.trim()).toBe("Preprint under review");
    expect(last?.metadata).toEqual({ rotated: true });
  });

  it("leaves a lone turned line over a value as turned text: a header row has two headings or more", () => {
    const page = {
      pageNumber: 1,
      width: 612,
      height: 792,
      runs: [run("71.2", 240, 172), run("68.4", 290, 172)],
      rotated: [turned("Accuracy", 244, 160)],
    };
    expect(withRotatedHeaders(page)).toEqual(page);
  });

  it("leaves turned lines whose feet are not on one line as turned text", () => {
    const page = {
      pageNumber: 1,
      width: 612,
      height: 792,
      runs: [run("71.2", 240, 172), run("68.4", 290, 172)],
      rotated: [turned("Accuracy", 244, 160), turned("Precision", 294, 150)],
    };
    expect(withRotatedHeaders(page)).toEqual(page);
  });

  it("leaves the turned axis titles of charts side by side as turned text: their tick labels are beside them", () => {
    // Two panels, each with a turned axis title drawn in pieces (a raised "-1") and its tick labels to its right.
    const title = (left: number): RotatedText[] => [
      { text: "Content (mg·g", left, right: left + 11, top: 310, bottom: 391, fontSize: 8.7 },
      { text: "-1", left: left - 1, right: left + 7, top: 304, bottom: 310, fontSize: 6.5 },
      { text: "DW)", left, right: left + 11, top: 285, bottom: 302, fontSize: 8.7 },
    ];
    const tick = (text: string, right: number, baseline: number): Run => ({
      ...run(text, right - 5 * text.length, baseline),
      right,
      fontSize: 8.7,
    });
    const page = {
      pageNumber: 1,
      width: 612,
      height: 792,
      runs: [tick("150", 262, 419), tick("0", 261, 393), tick("150", 404, 420), tick("0", 404, 393)],
      rotated: [...title(239), ...title(381)],
    };
    expect(withRotatedHeaders(page)).toEqual(page);
  });

  it("joins two turned lines side by side over one value into one heading, in drawing order", () => {
    const page = {
      pageNumber: 1,
      width: 612,
      height: 792,
      runs: [run("71.2", 238, 172), run("68.4", 290, 172)],
      rotated: [turned("Top-1", 238, 160), turned("accuracy", 250, 160), turned("Recall", 294, 160)],
    };
    const { runs, rotated } = withRotatedHeaders(page);
    expect(rotated).toEqual([]);
    expect(runs.slice(2).map((r) => [r.text, r.left, r.right, r.baseline])).toEqual([
      ["Top-1 accuracy", 238, 262, 160],
      ["Recall", 294, 306, 160],
    ]);
  });
});
