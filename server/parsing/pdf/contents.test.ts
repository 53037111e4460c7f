import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { htmlGrid } from "../table-structure";
import { BODY, PAGE, put } from "./test-fixtures";

/** Tables of contents with dot leaders (contents.ts) set right under a paragraph. */

const ENTRIES = [
  ["1 Introduction", "3"],
  ["2 Scope", "4"],
  ["3 Terms and definitions", "5"],
  ["4 Requirements", "7"],
];

/** A paragraph of three lines, then at the paragraph's own pitch the entries, leaders up to a right-aligned number. */
const buildContentsUnderParagraphPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const lines = [BODY.slice(0, 88), BODY.slice(88, 176), "and indexes every chunk for retrieval."];
  lines.forEach((line, i) => put(page, line, 72, 100 + i * 14, 10, font));
  ENTRIES.forEach(([title = "", number = ""], i) => {
    const top = 100 + (lines.length + i) * 14;
    put(page, title, 72, top, 10, font);
    put(page, " .".repeat(20), 300, top, 10, font);
    put(page, number, 540 - font.widthOfTextAtSize(number, 10), top, 10, font);
  });
  return doc.save();
};

describe("tables of contents", () => {
  it("leaves the last line of the paragraph above out of the first entry", async () => {
    const bytes = await buildContentsUnderParagraphPdf();
    const { elements } = await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" });
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const cells = htmlGrid(tables[0]?.html ?? "").filter((c) => c.col === 0);
    expect(cells.map((c) => c.text)).toEqual(ENTRIES.map(([title]) => title));
    expect(elements.find((e) => e.type === "NarrativeText")?.text).toMatch(/and indexes every chunk for retrieval\.$/);
  });
});
