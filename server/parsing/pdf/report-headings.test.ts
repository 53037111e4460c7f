import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { PAGE, put } from "./test-fixtures";
import { bodyLines, typesOf } from "./test-headings";

/**
 * Headings of reports, manuals and journal papers on small PDFs made here: a heading wrapped onto a line in lower
 * case, a journal's headings in the body's size (Roman numerals over capitals, letters over italics) and headings
 * that ask a question.
 */

describe("headings of reports and journals", () => {
  it("reads a heading wrapped onto a second line as one Title, apart from the paragraph close under it", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    bodyLines(page, regular, 80, 1);
    put(page, "1.1 Data collected from county agencies between the", 72, 150, 11, bold);
    put(page, "review periods", 72, 163, 11, bold);
    // The paragraph starts a line and a half under the heading's last line, closer than a paragraph gap.
    bodyLines(page, regular, 178, 2);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("1.1 Data collected from county agencies between the review periods")).toBe("Title");
    const paragraph = elements.find((e) => e.text.startsWith("Quarry parses") && e.text.includes("2.0"));
    expect(paragraph?.type).not.toBe("Title");
    expect(paragraph?.text).not.toContain("review periods");
  });
});
