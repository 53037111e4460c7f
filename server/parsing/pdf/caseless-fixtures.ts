import { PDFDict, PDFDocument, PDFName, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { PAGE, toUnicodeMap } from "./test-fixtures";

/**
 * Pages in scripts without letter case, as rtl.test.ts draws them: Helvetica's codes "À"–"ÿ" shown under a
 * ToUnicode map to Hebrew letters and to Chinese characters and punctuation, so the text layer holds these scripts
 * without such a font in the test. Latin letters, digits, spaces and "•" are themselves.
 */

export const HEBREW = "אבגדהוזחטיכךלמםנןסעפףצץקרשת";
export const CHINESE = "的数据系统处理结果模型分析用户方法报告服务价值设计性能网络存储请求";
const SHOWN = [...HEBREW, ...CHINESE, "。", "，"];
const codeOf = new Map(SHOWN.map((char, i) => [char, String.fromCharCode(0xc0 + i)]));
const glyphs = (text: string) => [...text].map((c) => codeOf.get(c) ?? c).join("");

export type Sheet = {
  page: PDFPage;
  font: PDFFont;
  /** Width of a text as drawn at a size. */
  width: (text: string, size: number) => number;
  /** A line drawn left to right from `left`, its top `top` points below the page's top. */
  ltr: (text: string, left: number, top: number, size?: number) => void;
  /** A line drawn in reading order leftwards from `right`, character by character (as LibreOffice draws Hebrew). */
  rtl: (text: string, right: number, top: number, size?: number) => void;
};

/** A one-page document; `draw` puts the text, then the font gets its map. */
export const caselessPdf = async (draw: (sheet: Sheet) => void): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const width = (text: string, size: number) => font.widthOfTextAtSize(glyphs(text), size);
  const y = (top: number, size: number) => PAGE.height - top - size;
  const ltr = (text: string, left: number, top: number, size = 10) =>
    page.drawText(glyphs(text), { x: left, y: y(top, size), size, font });
  const rtl = (text: string, right: number, top: number, size = 10) => {
    let x = right;
    for (const char of text) {
      x -= width(char, size);
      if (char !== " ") page.drawText(glyphs(char), { x, y: y(top, size), size, font });
    }
  };
  draw({ page, font, width, ltr, rtl });
  // Drawn first, then the font's dictionary is written and given its map, so saving does not write it again.
  await font.embed();
  doc.context.lookup(font.ref, PDFDict).set(PDFName.of("ToUnicode"), toUnicodeMap(doc, SHOWN));
  return doc.save();
};

/** A pseudo-random line of `count` characters from `alphabet` (seeded: the same every run). */
export const charsLine = (alphabet: string, count: number, seed: number): string => {
  const chars = [...alphabet];
  let s = seed;
  return Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return chars[s % chars.length];
  }).join("");
};

/** Hebrew words of three to five letters, `count` of them (seeded). */
export const hebrewWords = (count: number, seed: number): string[] =>
  Array.from({ length: count }, (_, i) => charsLine(HEBREW, 3 + ((seed + i) % 3), seed * 31 + i));
