import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { PAGE, put } from "./test-fixtures";
import { bodyLines, typesOf } from "./test-headings";

/** A contents list's first-level entries, set like headings without dot leaders. */

const setUp = async () => {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  return { doc, regular, bold, page: doc.addPage([PAGE.width, PAGE.height]) };
};

describe("contents entries set like headings", () => {
  it("types a contents entry beside entries with dot leaders as text, the section's own heading as Title", async () => {
    const { doc, regular, bold, page } = await setUp();
    put(page, "Contents", 72, 60, 16, bold);
    put(page, "1 Document structures", 72, 90, 11, bold);
    put(page, "1", 520, 90, 11, bold);
    put(page, "1.1 Mathematics . . . . . . . . . . . . . . . . . . . . . 1", 84, 104, 10, regular);
    put(page, "1 Document structures", 72, 160, 16, bold);
    bodyLines(page, regular, 186, 1);
    const { elements, typeOf } = await typesOf(doc);
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(typeOf("Contents")).toBe("Title");
    expect(titles.filter((t) => t === "1 Document structures")).toHaveLength(1);
    expect(titles.filter((t) => /structures\s+1$/.test(t))).toEqual([]);
  });
});
