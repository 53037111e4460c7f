import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { BODY, PAGE, put } from "./test-fixtures";
import { typesOf } from "./test-headings";

/** A figure's giant lettering drawn as text (a 100 pt "A") in one column, beside a heading in the other. */

describe("giant lettering beside the other column's lines", () => {
  it("reads the other column's heading alone as Title, and the lettering as no heading", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.TimesRoman);
    const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
    const sans = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const column = (x: number, top: number, n: number) => {
      for (let i = 0; i < n; i++) put(page, `${BODY.slice(0, 44)} ${x}.${top}.${i}`, x, top + 12 * i, 10, regular);
    };
    column(72, 80, 5);
    column(320, 80, 8);
    put(page, "A", 90, 150, 100, sans);
    put(page, "References", 320, 200, 14, bold);
    put(page, "[1] A. Author. A study of documents. 2020.", 320, 226, 10, regular);
    put(page, "[2] B. Author. Another study. 2021.", 320, 240, 10, regular);
    column(72, 300, 20);
    column(320, 300, 20);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("References")).toBe("Title");
    expect(elements.filter((e) => e.text.startsWith("[") && e.type === "ListItem")).toHaveLength(2);
    expect(elements.find((e) => e.text === "A")?.type ?? "none").not.toBe("Title");
  });
});
