import { PDFDict, PDFDocument, PDFName, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { numberInReadingOrder, rightToLeftOrder } from "./direction";
import { partitionPdf } from "./index";
import { PAGE, toUnicodeMap } from "./test-fixtures";

/**
 * Hebrew and Arabic as right-to-left producers write them. The letters are Helvetica's "À"–"ÿ" shown under a
 * ToUnicode map to Hebrew and Arabic letters (and one code to Arabic's lam-alef ligature, two letters in one glyph),
 * so the text layer holds these scripts without such a font in the test; Latin letters and digits are themselves.
 */

const HEBREW = "אבגדהוזחטיכךלמםנןסעפףצץקרשת";
const ARABIC = "ابتثجحخدذرزسشصضطظعغفقكلمنهويةأإ";
const LAM_ALEF = "لا";
const SHOWN = [...HEBREW, ...ARABIC, LAM_ALEF];
const codeOf = new Map(SHOWN.map((letters, i) => [letters, String.fromCharCode(0xc0 + i)]));

/**
 * The line's tokens in reading order: a number or a Latin phrase whole (each drawn left to right), a lam-alef as one
 * glyph, every other character alone.
 */
const tokens = (line: string) => line.match(/\d\d+|[A-Za-z][\w.]*(?: [A-Za-z][\w.]*)*|لا|./gu) ?? [];

/**
 * A line set from the right margin. `reading` draws it leftwards token by token, in reading order, each bracket as
 * the glyph shown (its mirror image), as LibreOffice does. `visual` draws the whole line as one string left to right,
 * its tokens reversed, each bracket's glyph mapped to the character read (as Word does): PDFium reverses such a line
 * and mirrors its brackets once more.
 */
const putRtl = (page: PDFPage, line: string, order: Order, top: number, size: number, font: PDFFont, right = RIGHT) => {
  const y = PAGE.height - top - size;
  const shown = (c: string) => (order === "reading" ? ({ "(": ")", ")": "(" }[c] ?? c) : c);
  const glyphs = (token: string) => codeOf.get(token) ?? [...token].map((c) => codeOf.get(c) ?? shown(c)).join("");
  if (order === "visual") {
    const text = tokens(line).reverse().map(glyphs).join("");
    page.drawText(text, { x: right - font.widthOfTextAtSize(text, size), y, size, font });
    return;
  }
  let x = right;
  for (const token of tokens(line)) {
    x -= font.widthOfTextAtSize(glyphs(token), size);
    page.drawText(glyphs(token), { x, y, size, font });
  }
};

type Order = "reading" | "visual";
const RIGHT = 540;

const hebrewPdf = async (lines: string[], order: Order, size = 11) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  lines.forEach((line, i) => putRtl(page, line, order, 100 + i * size * 1.3, size, font));
  // Drawn first, then the font's dictionary is written and given its map, so saving does not write it again.
  await font.embed();
  doc.context.lookup(font.ref, PDFDict).set(PDFName.of("ToUnicode"), toUnicodeMap(doc, SHOWN));
  return doc.save();
};

describe.each(["reading", "visual"] as const)("right-to-left text drawn in %s order", (order) => {
  it("reads a Hebrew paragraph in reading order, its words whole", async () => {
    const lines = ["כל בני האדם נולדו בני חורין ושווים בערכם", "ובזכויותיהם. כולם חוננו בתבונה ובמצפון."];
    const { elements } = await partitionPdf({ bytes: await hebrewPdf(lines, order) });
    expect(elements.map((e) => e.text)).toEqual([lines.join(" ")]);
  });

  it("keeps a number's digits in order and its brackets the right way round", async () => {
    const line = "לפי סעיף 15(ב)(4) בשנת 2022 היו 14 דוחות";
    const { elements } = await partitionPdf({ bytes: await hebrewPdf([line], order) });
    expect(elements.map((e) => e.text)).toEqual([line]);
  });
});

describe.each(["reading", "visual"] as const)(
  "Arabic and Latin inside right-to-left lines, drawn in %s order",
  (order) => {
    it("reads Arabic's lam-alef ligature as lam then alef", async () => {
      const line = "كان خلال العام لا بأس به";
      const { elements } = await partitionPdf({ bytes: await hebrewPdf([line], order) });
      expect(elements.map((e) => e.text)).toEqual([line]);
    });

    it("reads a number that Arabic's rules show split (at a hyphen, before its percent sign) in its own order", async () => {
      // After Arabic letters a number's digits are Arabic numbers, which "-" and "%" do not join: the page shows
      // "789-456-0123" and "%50".
      const line = "رقم الهاتف 0123-456-789 والنسبة 50% تم";
      const { elements } = await partitionPdf({ bytes: await hebrewPdf([line], order) });
      expect(elements.map((e) => e.text)).toEqual([line]);
    });

    it("keeps a Latin phrase or address inside the line in its own order", async () => {
      const line = "ראה את www.example.com או את Quarry PDF parser היום";
      const { elements } = await partitionPdf({ bytes: await hebrewPdf([line], order) });
      expect(elements.map((e) => e.text)).toEqual([line]);
    });
  },
);

it("orders a right-to-left line's runs from the right, a Latin address's pieces among them from the left", () => {
  // Runs left to right as the page shows them; PDFium may cut an address at its dots.
  const runs = ["היום", "www", ".", "example", ".", "com", ",", "ראה", "Quarry", "PDF", "גם", "km", "10", "מרחק"].map(
    (text) => ({ text }),
  );
  expect(rightToLeftOrder(runs).map((r) => r.text)).toEqual([
    "מרחק",
    "10",
    "km",
    "גם",
    "Quarry",
    "PDF",
    "ראה",
    ",",
    "www",
    ".",
    "example",
    ".",
    "com",
    "היום",
  ]);
});

it("turns a number shown split by Arabic's rules back only after Arabic letters, and its full stop to its end", () => {
  expect(numberInReadingOrder("789-456-0123", "رقم الهاتف")).toBe("0123-456-789");
  expect(numberInReadingOrder("%50", "والنسبة")).toBe("50%");
  expect(numberInReadingOrder("٣-٢", "صفحة")).toBe("٢-٣");
  // After a Latin word or Hebrew letters the digits stay European numbers, joined by "-": shown as written.
  expect(numberInReadingOrder("9001-2015", "حسب ISO")).toBe("9001-2015");
  expect(numberInReadingOrder("0123-456-789", "מספר")).toBe("0123-456-789");
  // Nothing to split: a plain number, a decimal, a date with slashes.
  expect(numberInReadingOrder("1,234.5", "المبلغ")).toBe("1,234.5");
  expect(numberInReadingOrder("12/05/2024", "بتاريخ")).toBe("12/05/2024");
  // Read before a Latin word: the word's own number ("ISO 9001-2015") or one before a unit ("10-20 km"), left whole.
  expect(numberInReadingOrder("9001-2015", "حسب المعيار", "ISO")).toBe("9001-2015");
  // A full stop after a number, shown at its left.
  expect(numberInReadingOrder(".12/05/2024", "بتاريخ")).toBe("12/05/2024.");
  expect(numberInReadingOrder(".2024", "בשנת")).toBe("2024.");
  // A line that starts with the number: no letter before it to go by.
  expect(numberInReadingOrder("2025-2024", "")).toBe("2025-2024");
});

describe("a right-to-left table", () => {
  const rows = [
    ["שם", "מספר", "הערה"],
    ["אחד", "12", "טוב מאוד"],
    ["שניים", "345", "רע"],
    ["שלושה", "6789", "בינוני"],
  ];
  /** Columns' right edges, the first column rightmost; rows 24 points apart. */
  const rights = [540, 400, 260];
  const tableTop = 100;
  const build = async (ruled: boolean) => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    rows.forEach((row, r) =>
      row.forEach((cell, c) => putRtl(page, cell, "visual", tableTop + r * 24, 10, font, rights[c]! - 6)),
    );
    if (ruled) {
      const y = (top: number) => PAGE.height - top;
      const [left, right, bottom] = [120, RIGHT, tableTop - 6 + rows.length * 24];
      for (let r = 0; r <= rows.length; r++) {
        const top = tableTop - 6 + r * 24;
        page.drawLine({ start: { x: left, y: y(top) }, end: { x: right, y: y(top) }, thickness: 0.5 });
      }
      for (const x of [left, ...rights.slice(1), right]) {
        page.drawLine({ start: { x, y: y(tableTop - 6) }, end: { x, y: y(bottom) }, thickness: 0.5 });
      }
    }
    await font.embed();
    doc.context.lookup(font.ref, PDFDict).set(PDFName.of("ToUnicode"), toUnicodeMap(doc, SHOWN));
    return doc.save();
  };

  it.each([
    ["ruled", true],
    ["unruled", false],
  ])("%s: its first column is the rightmost", async (_, ruled) => {
    const { elements } = await partitionPdf({ bytes: await build(ruled) });
    const table = elements.find((e) => e.type === "Table");
    expect(table?.text.split("\n")).toEqual(rows.map((row) => row.join(" ")));
    expect(table?.html).toMatch(/^<table>(<thead>)?<tr><th>שם<\/th><th>מספר<\/th><th>הערה<\/th><\/tr>/);
  });
});
