import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { BODY, PAGE, put } from "./test-fixtures";
import { bodyLines, typesOf } from "./test-headings";

/** Headings that name a command, file or function in a typewriter font inside a heading set in another. */

describe("a word in a typewriter font inside a heading", () => {
  it("types a numbered heading in small bold capitals naming a file in Courier as Title, apart from the text under it", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.TimesRoman);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const courier = await doc.embedFont(StandardFonts.CourierBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    bodyLines(page, regular, 80, 1);
    // ASME's style: 9 pt bold sans capitals over 10 pt text, the text's first line at the body's pitch below.
    const label = "5. REFERENCE FORMATTING WITH ";
    put(page, label, 72, 150, 9, bold);
    put(page, "references.bst", 72 + bold.widthOfTextAtSize(label, 9) + 1, 150, 9, courier);
    bodyLines(page, regular, 162, 2);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("5. REFERENCE FORMATTING WITH references.bst")).toBe("Title");
    const under = elements.find((e) => e.text.startsWith(BODY.slice(0, 40)) && e.text.includes(" 2.0"));
    expect(under?.type).toBe("NarrativeText");
  });

  it("keeps a bold numbered line in sentence case at the body's size, naming a function, a list item", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.TimesRoman);
    const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
    const courier = await doc.embedFont(StandardFonts.Courier);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    bodyLines(page, regular, 80, 1);
    const label = "1. Call the function ";
    put(page, label, 72, 150, 10, bold);
    put(page, "parse_args", 72 + bold.widthOfTextAtSize(label, 10) + 1, 150, 10, courier);
    bodyLines(page, regular, 170, 2);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("1. Call the function parse_args")).not.toBe("Title");
  });
});
