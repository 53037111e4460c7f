import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE } from "./test-fixtures";

/**
 * Running heads in step with the page: a number at the same end of a margin line, page after page. Section numbers
 * at the top of two pages, one at a line's end and one at its start, are not that.
 */
describe("running heads whose number keeps in step with the page", () => {
  it("leaves a numbered line on page 1 and a numbered heading on page 2 untyped as running heads", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const pages = [doc.addPage([PAGE.width, PAGE.height]), doc.addPage([PAGE.width, PAGE.height])];
    const put = (n: number, text: string, x: number, top: number, size: number, f = font) =>
      pages[n]?.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
    put(0, "A Study of Things", 72, 40, 20, bold);
    put(0, "1 Introduction 1", 72, 90, 11, bold);
    put(1, "2 Methods", 72, 60, 11, bold);
    for (const n of [0, 1]) {
      for (let i = 0; i < 6; i++) put(n, `${BODY.slice(0, 88)} ${n}.${i}`, 72, 200 + i * 14, 11);
    }
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const numbered = elements.filter((e) => /Introduction|Methods/.test(e.text));
    expect(numbered.map((e) => e.text)).toEqual(["1 Introduction 1", "2 Methods"]);
    expect(numbered.map((e) => e.type)).toEqual(["Title", "Title"]);
  });
});
