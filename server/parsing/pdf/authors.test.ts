import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE } from "./test-fixtures";

/**
 * A paper's front matter: its title (set only a little larger than the authors, and the page's largest text), two
 * authors set a little larger than the body and centred over their affiliation and e-mail, then a centred section
 * heading over justified text.
 */
const buildFrontMatterPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const centred = (text: string, top: number, size: number) =>
    page.drawText(text, {
      x: (PAGE.width - font.widthOfTextAtSize(text, size)) / 2,
      y: PAGE.height - top - size,
      size,
      font,
    });
  centred("Hidden Features of Documents", 86, 13);
  centred("Ada Lovelace", 110, 12);
  centred("Analytical Engines Ltd", 126, 10);
  centred("ada@engines.example", 140, 10);
  centred("Grace Hopper", 170, 12);
  centred("Compiler Works", 186, 10);
  centred("June 18, 2025", 200, 10);
  centred("Introduction", 250, 12);
  for (let i = 0; i < 10; i++) {
    page.drawText(`${BODY.slice(0, 88)} ${i}`, { x: 72, y: PAGE.height - 274 - i * 14 - 10, size: 10, font });
  }
  return doc.save();
};

describe("author lines", () => {
  it("are no headings when an e-mail address or a date is centred under them", async () => {
    const { elements } = await partitionPdf({ bytes: await buildFrontMatterPdf() });
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toEqual(["Hidden Features of Documents", "Introduction"]);
    expect(elements.find((e) => e.text === "Ada Lovelace")?.type).toBe("UncategorizedText");
  });
});

/**
 * LaTeX's \maketitle without e-mails or a date: two authors, each name centred over its affiliation in the same size
 * (12 pt over 10 pt text), then the abstract's centred heading.
 */
const buildLatexFrontMatterPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const centred = (text: string, axis: number, top: number, size: number) =>
    page.drawText(text, {
      x: axis - font.widthOfTextAtSize(text, size) / 2,
      y: PAGE.height - top - size,
      size,
      font,
    });
  centred("Structure-Aware Parsing of Documents", PAGE.width / 2, 90, 17);
  centred("Alice Martin", PAGE.width / 2, 130, 12);
  centred("Department of Computer Science, Northland University", PAGE.width / 2, 145, 12);
  centred("Bruno Keller", PAGE.width / 2, 170, 12);
  centred("Institute for Document Systems", PAGE.width / 2, 185, 12);
  centred("Abstract", PAGE.width / 2, 220, 10);
  for (let i = 0; i < 10; i++) {
    page.drawText(`${BODY.slice(0, 88)} ${i}`, { x: 72, y: PAGE.height - 240 - i * 14 - 10, size: 10, font });
  }
  return doc.save();
};

describe("author lines of LaTeX's title block", () => {
  it("are no headings when an institution's name is centred under them", async () => {
    const { elements } = await partitionPdf({ bytes: await buildLatexFrontMatterPdf() });
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toEqual(["Structure-Aware Parsing of Documents", "Abstract"]);
  });
});
