import { describe, expect, it } from "vitest";
import { joinsWithoutSpace } from "./caseless";
import { CHINESE, caselessPdf, charsLine, hebrewWords, type Sheet } from "./caseless-fixtures";
import { partitionPdf } from "./index";

/**
 * Pages in scripts without letter case (Hebrew, Chinese): no line of theirs has a lower-case word, and Chinese sets no
 * space between words, so prose measures made for Latin text must not take such a page for a table.
 */

const SIZE = 10;
const LEADING = 13;
/** The two columns of a page: 72–297 and 315–540. */
const COLUMNS = [
  { left: 72, right: 297 },
  { left: 315, right: 540 },
] as const;

/** Lines of Chinese that fill a column (the last one half), each ending a sentence at the paragraph's end. */
const chineseLines = (sheet: Sheet, count: number, seed: number, width: number) =>
  Array.from({ length: count }, (_, i) => {
    let line = "";
    const full = i === count - 1 ? width / 2 : width - 12;
    for (let k = 0; sheet.width(line, SIZE) < full; k++) line += charsLine(CHINESE, 1, seed * 97 + i * 13 + k);
    return i === count - 1 ? `${line}。` : line;
  });

/** Lines of Hebrew words that fill a column (the last one half), the paragraph ending in a full stop. */
const hebrewLines = (sheet: Sheet, count: number, seed: number, width: number) =>
  Array.from({ length: count }, (_, i) => {
    const words = hebrewWords(30, seed * 53 + i);
    const full = i === count - 1 ? width / 2 : width - 20;
    let line = "";
    for (const word of words) {
      if (sheet.width(`${line} ${word}`, SIZE) > full) break;
      line = line ? `${line} ${word}` : word;
    }
    return i === count - 1 ? `${line}.` : line;
  });

const texts = async (bytes: Uint8Array) => (await partitionPdf({ bytes })).elements;

describe("a two-column Chinese page", () => {
  it("finds its columns and reads no table", async () => {
    const paragraphs: string[][] = [];
    const bytes = await caselessPdf((sheet) => {
      COLUMNS.forEach((column, c) => {
        const lines = chineseLines(sheet, 14, c + 1, column.right - column.left);
        paragraphs.push(lines);
        lines.forEach((line, i) => sheet.ltr(line, column.left, 100 + i * LEADING));
      });
    });
    const elements = await texts(bytes);
    expect(elements.some((e) => e.type === "Table")).toBe(false);
    // Column by column (spaces aside: how wrapped lines join is the next test's).
    expect(elements.map((e) => e.text.replace(/\s/g, ""))).toEqual(paragraphs.map((p) => p.join("")));
  });

  it("joins a paragraph's wrapped lines with no space between two characters", async () => {
    let lines: string[] = [];
    const bytes = await caselessPdf((sheet) => {
      lines = chineseLines(sheet, 4, 7, 468);
      lines.forEach((line, i) => sheet.ltr(line, 72, 100 + i * LEADING));
    });
    expect((await texts(bytes)).map((e) => e.text)).toEqual([lines.join("")]);
  });
});

describe("a two-column Hebrew page", () => {
  it("reads its right column first", async () => {
    const paragraphs: string[] = [];
    const bytes = await caselessPdf((sheet) => {
      for (const column of [COLUMNS[1], COLUMNS[0]]) {
        const lines = hebrewLines(sheet, 14, column.left, column.right - column.left);
        paragraphs.push(lines.join(" "));
        lines.forEach((line, i) => sheet.rtl(line, column.right, 100 + i * LEADING));
      }
    });
    expect((await texts(bytes)).map((e) => e.text)).toEqual(paragraphs);
  });

  it("finds its columns beside a bulleted list, each bullet right of its item", async () => {
    const items: string[] = [];
    let right: string[] = [];
    const bytes = await caselessPdf((sheet) => {
      right = hebrewLines(sheet, 14, 3, 225);
      right.forEach((line, i) => sheet.rtl(line, 540, 100 + i * LEADING));
      // The left column's items: a bullet at its right edge, the item's text indented left of it.
      for (let i = 0; i < 7; i++) {
        const [line] = hebrewLines(sheet, 2, 20 + i, 190);
        items.push(line!);
        sheet.ltr("•", 288, 100 + i * 2 * LEADING);
        sheet.rtl(line!, 276, 100 + i * 2 * LEADING);
      }
    });
    const elements = await texts(bytes);
    expect(elements.some((e) => e.type === "Table")).toBe(false);
    expect(elements[0]?.text).toBe(right.join(" "));
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text.replace(/^•\s*/, ""))).toEqual(items);
  });

  it("reads a Latin page with one Hebrew paragraph left column first", async () => {
    const latin = "the results of the review were sent to every county agency and staff";
    const bytes = await caselessPdf((sheet) => {
      hebrewLines(sheet, 7, 5, 225).forEach((line, i) => sheet.rtl(line, 297, 100 + i * LEADING));
      for (let i = 0; i < 7; i++) sheet.ltr(latin.slice(0, 40 + i), 72, 100 + (7 + i) * LEADING);
      for (let i = 0; i < 14; i++) sheet.ltr(latin.slice(i % 5, 40 + (i % 5)), 315, 100 + i * LEADING);
    });
    const elements = await texts(bytes);
    expect(elements.length).toBeGreaterThan(1);
    expect(elements[elements.length - 1]?.text.startsWith(latin.slice(0, 20))).toBe(true);
    expect(elements[0]?.text.startsWith(latin.slice(0, 20))).toBe(false);
  });
});

describe("a Hebrew page of justified prose", () => {
  it("reads justified lines stretched word by word as prose, not as a table", async () => {
    // A narrow justified column: a line of few long words is stretched until its word spaces pass an em, twice, around
    // a line of ordinary spacing (LibreOffice's export of a Hebrew list item in a column).
    const stretched = (seed: number) => {
      const words = hebrewWords(5, seed);
      return words.map((w, i) => (i === 2 ? `${w},` : w));
    };
    let lines: string[] = [];
    const bytes = await caselessPdf((sheet) => {
      const plain = hebrewLines(sheet, 6, 9, 225);
      const spread = (words: string[], top: number) => words.forEach((word, i) => sheet.rtl(word, 540 - i * 47, top));
      lines = [
        plain[0]!,
        stretched(1).join(" "),
        plain[1]!,
        stretched(2).join(" "),
        plain[2]!,
        stretched(3).join(" "),
        plain[5]!,
      ];
      lines.forEach((line, i) => {
        if (i % 2 === 1) spread(line.split(" "), 100 + i * LEADING);
        else sheet.rtl(line, 540, 100 + i * LEADING);
      });
    });
    const elements = await texts(bytes);
    expect(elements.some((e) => e.type === "Table")).toBe(false);
    expect(elements.map((e) => e.text).join(" ")).toBe(lines.join(" "));
  });

  it("reads lines stretched word by word between lines of ordinary spacing as prose", async () => {
    // No word of the stretched lines ends a clause (as Arabic stretched letter by letter is cut inside its words):
    // the ordinary lines across the cells, five words and more, show the text is running prose.
    let lines: string[] = [];
    const bytes = await caselessPdf((sheet) => {
      const plain = hebrewLines(sheet, 6, 11, 225);
      lines = [
        plain[0]!,
        hebrewWords(5, 4).join(" "),
        plain[1]!,
        hebrewWords(5, 5).join(" "),
        plain[2]!,
        hebrewWords(5, 6).join(" "),
        plain[5]!,
      ];
      lines.forEach((line, i) => {
        if (i % 2 === 1) line.split(" ").forEach((word, k) => sheet.rtl(word, 540 - k * 47, 100 + i * LEADING));
        else sheet.rtl(line, 540, 100 + i * LEADING);
      });
    });
    const elements = await texts(bytes);
    expect(elements.some((e) => e.type === "Table")).toBe(false);
    expect(elements.map((e) => e.text).join(" ")).toBe(lines.join(" "));
  });
});

it("joins wrapped lines without a space only between two Chinese or Japanese characters or marks", () => {
  expect(joinsWithoutSpace("系统处理", "结果模型")).toBe(true);
  expect(joinsWithoutSpace("数据,", "システム")).toBe(true);
  expect(joinsWithoutSpace("结果。", "「報告」")).toBe(true);
  expect(joinsWithoutSpace("系统处理", "Quarry parser")).toBe(false);
  expect(joinsWithoutSpace("the parser", "结果")).toBe(false);
  expect(joinsWithoutSpace("נתונים", "מערכת")).toBe(false);
});
