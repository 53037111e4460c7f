import { PDFDict, PDFDocument, PDFName, StandardFonts } from "pdf-lib";
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

  it("types a journal's Roman-numbered capitals and lettered italic lines set apart as Title, not a list's items", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.TimesRoman);
    const italic = await doc.embedFont(StandardFonts.TimesRomanItalic);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    // A centred heading in the body's font and size, its section's first line close under it.
    put(page, "II. RELATED WORK", 260, 80, 10, regular);
    bodyLines(page, regular, 94, 1);
    put(page, "A. Prior studies of storage", 72, 160, 10, italic);
    bodyLines(page, regular, 178, 2);
    // A lettered list and a Roman-numbered list in the body's font, in sentence case.
    put(page, "A. The first option we offer", 72, 250, 10, regular);
    put(page, "B. The second option we offer", 72, 262, 10, regular);
    bodyLines(page, regular, 290, 3);
    put(page, "I. Scope of the agreement", 72, 350, 10, regular);
    put(page, "II. Terms of the agreement", 72, 362, 10, regular);
    bodyLines(page, regular, 390, 4);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("II. RELATED WORK")).toBe("Title");
    expect(typeOf("A. Prior studies of storage")).toBe("Title");
    for (const words of ["first option", "second option", "Scope of the", "Terms of the"]) {
      expect(elements.find((e) => e.text.includes(words))?.type).toBe("ListItem");
    }
  });

  it("reads italics and small capitals by LaTeX's font names: URW's ReguItal, TeX's CMCSC", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.TimesRoman);
    // Times as pdfTeX embeds it (NimbusRomNo9L-ReguItal), and small capitals whose letters read as lower case.
    const italic = await doc.embedFont(StandardFonts.TimesRomanItalic);
    const smallCaps = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "A. Prior studies of storage", 72, 80, 10, italic);
    bodyLines(page, regular, 98, 1);
    put(page, "2.", 230, 170, 10, regular);
    put(page, "Segments", 244, 170, 10, smallCaps);
    bodyLines(page, regular, 188, 2);
    // A numbered list in the body's font, in sentence case, stays a list.
    put(page, "1. The first option we offer", 72, 260, 10, regular);
    put(page, "2. The second option we offer", 72, 272, 10, regular);
    bodyLines(page, regular, 300, 3);
    await doc.flush();
    for (const [font, name] of [
      [italic, "ENPKGJ+NimbusRomNo9L-ReguItal"],
      [smallCaps, "MGRVGL+CMCSC10"],
    ] as const) {
      doc.context.lookup(font.ref, PDFDict).set(PDFName.of("BaseFont"), PDFName.of(name));
    }
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("A. Prior studies of storage")).toBe("Title");
    expect(typeOf("2. Segments")).toBe("Title");
    for (const words of ["first option", "second option"]) {
      expect(elements.find((e) => e.text.includes(words))?.type).toBe("ListItem");
    }
  });

  it("types a heading that asks one short question as Title, not a paragraph's line ending in a question", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Who can apply?", 72, 80, 11, bold);
    bodyLines(page, regular, 96, 1);
    put(page, "How do I submit a request?", 72, 160, 11, bold);
    bodyLines(page, regular, 176, 2);
    put(page, "It failed. Why did the review fail?", 72, 240, 11, bold);
    bodyLines(page, regular, 256, 3);
    put(page, "What did the agencies report to the board?", 72, 320, 10, regular);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("Who can apply?")).toBe("Title");
    expect(typeOf("How do I submit a request?")).toBe("Title");
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles.filter((t) => /review fail|agencies report/.test(t))).toEqual([]);
  });
});
