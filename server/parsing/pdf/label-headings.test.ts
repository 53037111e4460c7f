import { PDFDict, PDFDocument, PDFName, PDFNumber, type PDFFont, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { PAGE, put } from "./test-fixtures";
import { bodyLines, typesOf } from "./test-headings";

/** A label in bold a size smaller than the body, ending with a colon, over text in its own size (ACM's papers). */

const CITATION = "A. Author and B. Author. 2019. A study of documents. In Proceedings of Tests.";

/** Body text, then `label` in `bold` at 9 pt over two 9 pt lines, all at the text's pitch. */
const labelledPdf = async (label: string, rename?: (doc: PDFDocument, bold: PDFFont) => void) => {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const next = bodyLines(page, regular, 80, 1);
  put(page, label, 72, next + 2, 9, bold);
  put(page, CITATION, 72, next + 13, 9, regular);
  put(page, CITATION, 72, next + 24, 9, regular);
  bodyLines(page, regular, 300, 2);
  await doc.flush();
  rename?.(doc, bold);
  return doc;
};

describe("a small bold label ending with a colon", () => {
  it("reads as a heading of its own, not the last words of the paragraph above", async () => {
    const { typeOf } = await typesOf(await labelledPdf("Reference Format:"));
    expect(typeOf("Reference Format:")).toBe("Title");
  });

  it("keeps a longer bold phrase ending with a colon out of the headings", async () => {
    const { typeOf } = await typesOf(await labelledPdf("The steps we took in this study:"));
    expect(typeOf("The steps we took in this study:")).not.toBe("Title");
  });

  it("reads a face as bold by its weight when its name does not say so", async () => {
    const doc = await labelledPdf("Reference Format:", (d, bold) => {
      // A bold face named as Linux Libertine names its own ("LinLibertineTB"), with stems as thick as a bold's.
      const font = d.context.lookup(bold.ref, PDFDict);
      font.set(PDFName.of("BaseFont"), PDFName.of("LibreSerifTB"));
      const descriptor = d.context.obj({
        Type: "FontDescriptor",
        FontName: "LibreSerifTB",
        Flags: 34,
        FontBBox: [-168, -218, 1000, 935],
        ItalicAngle: 0,
        Ascent: 683,
        Descent: -217,
        CapHeight: 676,
        StemV: PDFNumber.of(140),
      });
      font.set(PDFName.of("FontDescriptor"), d.context.register(descriptor));
    });
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Reference Format:")).toBe("Title");
  });
});
