import { PDFDict, PDFDocument, PDFName, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from "./index";
import { PAGE } from "./test-fixtures";

/**
 * Hebrew as a right-to-left producer writes it: each line's words in reading order, every letter drawn to the left of
 * the one before (numbers left to right inside the line). The letters are Helvetica's "A"–"[" shown under a ToUnicode
 * map to alef–tav, so the text layer holds Hebrew without a Hebrew font in the test.
 */

const ALEF = 0x05d0;
const LETTERS = 27;
const toLatin = (hebrew: string) =>
  [...hebrew].map((c) => (c >= "\u05d0" && c <= "\u05ea" ? String.fromCharCode(0x41 + c.charCodeAt(0) - ALEF) : c));

const toUnicodeMap = (doc: PDFDocument) => {
  const pairs = Array.from({ length: LETTERS }, (_, i) => `<${(0x41 + i).toString(16)}> <0${(ALEF + i).toString(16)}>`);
  const cmap = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
    "1 begincodespacerange <00> <FF> endcodespacerange",
    `${LETTERS} beginbfchar ${pairs.join(" ")} endbfchar`,
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  return doc.context.register(doc.context.stream(cmap));
};

/** The line's tokens in reading order: a number whole, every other character alone. */
const tokens = (line: string) => line.match(/\d\d+|./gu) ?? [];

/**
 * A line set from the right margin. `reading` draws it leftwards token by token, in reading order, each bracket as
 * the glyph shown (its mirror image), as LibreOffice does. `visual` draws the whole line as one string left to right,
 * its tokens reversed, each bracket's glyph mapped to the character read (as Word does): PDFium reverses such a line
 * and mirrors its brackets once more.
 */
const putRtl = (page: PDFPage, line: string, order: Order, top: number, size: number, font: PDFFont, right = RIGHT) => {
  const y = PAGE.height - top - size;
  const shown = (c: string) => (order === "reading" ? ({ "(": ")", ")": "(" }[c] ?? c) : c);
  const glyphs = (token: string) => (/\d/.test(token) ? token : toLatin(token).map(shown).join(""));
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
  doc.context.lookup(font.ref, PDFDict).set(PDFName.of("ToUnicode"), toUnicodeMap(doc));
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
    doc.context.lookup(font.ref, PDFDict).set(PDFName.of("ToUnicode"), toUnicodeMap(doc));
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
