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

/**
 * A slide deck's conference line, set larger than the body at the top of every page, is a running head; a chapter
 * heading at the same place whose number changes from page to page stays a heading.
 */
describe("running heads set larger than the body", () => {
  it("types a large line repeated unchanged as a Header and keeps changing chapter headings as Titles", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    for (let n = 0; n < 3; n++) {
      const page = doc.addPage([PAGE.width, PAGE.height]);
      const put = (text: string, top: number, size: number, f = font) =>
        page.drawText(text, { x: 72, y: PAGE.height - top - size, size, font: f });
      put("DocEng 2019: Hidden Features of Documents", 30, 16);
      put(`Chapter ${n + 3}`, 90, 16, bold);
      for (let i = 0; i < 8; i++) put(`${BODY.slice(0, 88)} ${n}.${i}`, 200 + i * 14, 11);
    }
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const conference = elements.filter((e) => e.text.startsWith("DocEng"));
    expect(conference.map((e) => e.type)).toEqual(["Header", "Header", "Header"]);
    const chapters = elements.filter((e) => e.text.startsWith("Chapter"));
    expect(chapters.map((e) => `${e.type} ${e.text}`)).toEqual([
      "Title Chapter 3",
      "Title Chapter 4",
      "Title Chapter 5",
    ]);
  });
});
