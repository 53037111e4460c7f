import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE } from "./test-fixtures";

/** A document of `count` pages in Helvetica; `put` draws on page n (0-based) at (x, top) from the top. */
const pagesOf = async (count: number) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pages = Array.from({ length: count }, () => doc.addPage([PAGE.width, PAGE.height]));
  const put = (n: number, text: string, x: number, top: number, size: number, f = font) =>
    pages[n]?.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
  return { doc, font, bold, put };
};

/**
 * Running heads in step with the page: a number at the same end of a margin line, page after page. Section numbers
 * at the top of two pages, one at a line's end and one at its start, are not that.
 */
describe("running heads whose number keeps in step with the page", () => {
  it("leaves a numbered line on page 1 and a numbered heading on page 2 untyped as running heads", async () => {
    const { doc, bold, put } = await pagesOf(2);
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

  // "Section 1" on page 1 and "Section 2" on page 2 carry a number in step with the page, as the items "1. Item 1" and
  // "2. Item 2" do: without a running head above them, the sections are the pages' first text.
  it.each([true, false])(
    "keeps the same list near the top of both pages of a two-page document as items (running head: %s)",
    async (withHead) => {
      const { doc, bold, put } = await pagesOf(2);
      for (const n of [0, 1]) {
        if (withHead) put(n, "Acme Corporation - Internal", 72, 30, 9);
        put(n, `Section ${n + 1}`, 72, 80, 16, bold);
        for (let i = 1; i <= 3; i++) put(n, `${i}. Item ${i}`, 72, 90 + i * 16, 11);
        for (let i = 0; i < 6; i++) put(n, `${BODY.slice(0, 88)} ${n}.${i}`, 72, 200 + i * 14, 11);
      }
      const { elements } = await partitionPdf({ bytes: await doc.save() });
      const items = elements.filter((e) => /^\d\. Item/.test(e.text));
      expect(items.map((e) => e.type)).toEqual(Array(6).fill("ListItem"));
      const heads = elements.filter((e) => e.text.startsWith("Acme"));
      expect(heads.map((e) => e.type)).toEqual(withHead ? ["Header", "Header"] : []);
    },
  );

  it("types a left-hand page's head, its page number a tab from the words, as a Header though seen once", async () => {
    const { doc, bold, put } = await pagesOf(3);
    // Right-hand pages carry the folio at the end, the left-hand page (2) at the start, far from the words.
    put(0, "Quarry Handbook", 72, 40, 9);
    put(0, "1", 530, 40, 9);
    put(1, "2", 72, 40, 9);
    put(1, "Chapter 1. Getting started", 300, 40, 9);
    put(2, "Quarry Handbook", 72, 40, 9);
    put(2, "3", 530, 40, 9);
    // A heading opening a page with its number an em from its words stays a heading.
    put(2, "3 Methods", 72, 80, 11, bold);
    for (const n of [0, 1, 2]) {
      for (let i = 0; i < 6; i++) put(n, `${BODY.slice(0, 88)} ${n}.${i}`, 72, 200 + i * 14, 11);
    }
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (text: string) => elements.find((e) => e.text.replace(/\s+/g, " ") === text)?.type;
    expect(typeOf("2 Chapter 1. Getting started")).toBe("Header");
    expect(typeOf("Quarry Handbook 3")).toBe("Header");
    expect(typeOf("3 Methods")).toBe("Title");
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

describe("running heads of a page cut from a printed book or report", () => {
  it("types the first and last lines carrying the printed page's number as Header and Footer, not a year or a label", async () => {
    const cut = await PDFDocument.create();
    const font = await cut.embedFont(StandardFonts.Helvetica);
    const bold = await cut.embedFont(StandardFonts.HelveticaBold);
    const page = cut.addPage([PAGE.width, PAGE.height]);
    const put = (text: string, top: number, size: number, f = font, x = 72) =>
      page.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
    // The folio at the margin, a wide gap from the head's words.
    put("454", 40, 8);
    put("A. Author / Journal of Examples 22 (2019) 451-457", 40, 8, font, 200);
    put("Results", 90, 14, bold);
    for (let i = 0; i < 6; i++) put(`${BODY.slice(0, 88)} ${i}`, 120 + i * 14, 11);
    put("Appendix B", 750, 12);
    put("200", 750, 12, font, 500);
    const { elements } = await partitionPdf({ bytes: await cut.save() });
    const typeOf = (text: string) => elements.find((e) => e.text.replace(/\s+/g, " ") === text)?.type;
    expect(typeOf("454 A. Author / Journal of Examples 22 (2019) 451-457")).toBe("Header");
    expect(typeOf("Results")).toBe("Title");
    expect(typeOf("Appendix B 200")).toBe("Footer");

    const report = await PDFDocument.create();
    const reportBold = await report.embedFont(StandardFonts.HelveticaBold);
    const reportFont = await report.embedFont(StandardFonts.Helvetica);
    const first = report.addPage([PAGE.width, PAGE.height]);
    first.drawText("Annual Report 2019", { x: 72, y: PAGE.height - 54, size: 14, font: reportBold });
    for (let i = 0; i < 6; i++) {
      first.drawText(`${BODY.slice(0, 88)} ${i}`, { x: 72, y: PAGE.height - 100 - i * 14, size: 11, font: reportFont });
    }
    // A label and its number alone at the page's foot may be a heading: no running foot.
    first.drawText("Form 1040", { x: 72, y: 40, size: 14, font: reportBold });
    const { elements: reportElements } = await partitionPdf({ bytes: await report.save() });
    expect(reportElements.find((e) => e.text === "Annual Report 2019")?.type).toBe("Title");
    expect(reportElements.find((e) => e.text === "Form 1040")?.type).toBeDefined();
    expect(reportElements.find((e) => e.text === "Form 1040")?.type).not.toBe("Footer");
  });

  it("keeps a number a word space from its words as text: an address, a title", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    page.drawText("1600 Amphitheatre Parkway, Mountain View", { x: 72, y: PAGE.height - 50, size: 11, font });
    for (let i = 0; i < 6; i++) {
      page.drawText(`${BODY.slice(0, 88)} ${i}`, { x: 72, y: PAGE.height - 100 - i * 14, size: 11, font });
    }
    page.drawText("100 Days of Recovery Work", { x: 72, y: 50, size: 11, font });
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (text: string) => elements.find((e) => e.text === text)?.type;
    expect(typeOf("1600 Amphitheatre Parkway, Mountain View")).not.toMatch(/Header|Footer/);
    expect(typeOf("100 Days of Recovery Work")).not.toMatch(/Header|Footer/);
  });
});

describe("running heads that name the chapter", () => {
  it("types a head whose book name recurs before a dash, its chapter changing, as a Header on every page", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const chapters = ["Getting Started", "Daily Operation", "Maintenance"];
    for (let n = 0; n < 6; n++) {
      const page = doc.addPage([PAGE.width, PAGE.height]);
      const put = (text: string, top: number, size: number, f = font) =>
        page.drawText(text, { x: 72, y: PAGE.height - top - size, size, font: f });
      const chapter = `Chapter ${Math.floor(n / 2) + 1} ${chapters[Math.floor(n / 2)]}`;
      // Each chapter's head is seen on two pages only; "User Guide" on all six.
      put(`User Guide \u2014 ${chapter}`, 36, 9);
      if (n % 2 === 0) put(chapter, 90, 16, bold);
      for (let i = 0; i < 8; i++) put(`${BODY.slice(0, 88)} ${n}.${i}`, 140 + i * 14, 10);
    }
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const heads = elements.filter((e) => e.text.startsWith("User Guide"));
    expect(heads.map((e) => e.type)).toEqual(Array(6).fill("Header"));
    expect(elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual([
      "Chapter 1 Getting Started",
      "Chapter 2 Daily Operation",
      "Chapter 3 Maintenance",
    ]);
  });
});

describe("a page printed by a browser", () => {
  it("types the head a browser stamps with the print's date and time as a Header on a page of its own", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const put = (text: string, x: number, top: number, size: number, f = font) =>
      page.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
    // The page's title at the left of the top margin and the time it was printed at the right, in small type.
    put("Annual Report 2023", 50, 22, 6);
    put("12/7/26, 8:32 PM", 500, 22, 6);
    put("Financial Review", 72, 70, 18, bold);
    for (let i = 0; i < 8; i++) put(`${BODY.slice(0, 88)} ${i}.`, 72, 110 + i * 14, 10);
    put("Page 1 of 1", 280, 810, 6);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements[0]).toMatchObject({ type: "Header", text: "Annual Report 2023 12/7/26, 8:32 PM" });
    expect(elements.find((e) => e.text === "Financial Review")?.type).toBe("Title");
  });
});
