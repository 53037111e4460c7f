import { PDFDocument, StandardFonts, type PDFFont } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE } from "./test-fixtures";

/** Lines of at most `width` points of body text in `font` at 10 pt, from the BODY sentence repeated. */
const fitLines = (font: PDFFont, width: number, count: number): string[] => {
  const words = `${BODY} ${BODY} ${BODY}`.split(" ");
  const lines: string[] = [];
  let at = 0;
  while (lines.length < count) {
    let line = "";
    while (font.widthOfTextAtSize(`${line} ${words[at % words.length]}`.trim(), 10) <= width) {
      line = `${line} ${words[at % words.length]}`.trim();
      at++;
    }
    lines.push(line);
  }
  return lines;
};

/**
 * Two columns 10 pt apart; a 14 pt heading in the right column sits on the row of a left line that ends at the
 * gutter, closer to it than the gap that separates segments at that size.
 */
const buildNarrowGutterPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const put = (text: string, x: number, top: number, size: number, f = font) =>
    page.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
  const left = fitLines(font, 220, 24);
  const right = fitLines(font, 220, 24);
  left.forEach((line, i) => {
    const x = i === 8 ? 292 - font.widthOfTextAtSize(line, 10) : 72;
    put(line, x, 100 + i * 14, 10);
  });
  right.forEach((line, i) => {
    if (i === 8) put("2 Document structures", 302, 98 + i * 14, 14, bold);
    else if (i !== 9) put(line, 302, 100 + i * 14, 10);
  });
  return doc.save();
};

/** A page with notes in its left margin, one of them on the row of a section heading. */
const buildMarginNotesPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const put = (text: string, x: number, top: number, size: number, f = font) =>
    page.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
  for (let i = 0; i < 6; i++) put(`${BODY.slice(0, 80)} ${i}.`, 100, 100 + i * 14, 10);
  const notes = ["Marginal", "notes sit", "in the outer", "margin."];
  notes.forEach((note, i) => put(note, 24, 184 + i * 14, 10));
  // The heading shares its row with the notes' last line, 26 pt right of it (wider than a word space).
  put("2.4 Theorems", 100, 226, 12, bold);
  for (let i = 0; i < 6; i++) put(`${BODY.slice(0, 80)} ${i + 6}.`, 100, 248 + i * 14, 10);
  return doc.save();
};

describe("notes in a page's margin", () => {
  it("reads them apart from the body, so the heading beside a note stays a heading of its own", async () => {
    const { elements } = await partitionPdf({ bytes: await buildMarginNotesPdf() });
    const heading = elements.find((e) => e.text.includes("Theorems"));
    expect(heading?.text).toBe("2.4 Theorems");
    expect(heading?.type).toBe("Title");
    const note = elements.find((e) => e.text.includes("Marginal"));
    expect(note?.text).toBe("Marginal notes sit in the outer margin.");
  });
});

describe("a narrow gutter", () => {
  it("splits a row's text at the gutter, so a heading in the right column is not read into the left line", async () => {
    const { elements } = await partitionPdf({ bytes: await buildNarrowGutterPdf() });
    const heading = elements.find((e) => e.text.includes("Document structures"));
    expect(heading?.text).toBe("2 Document structures");
    expect(heading?.type).toBe("Title");
  });
});
