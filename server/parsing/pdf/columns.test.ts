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

describe("a narrow gutter", () => {
  it("splits a row's text at the gutter, so a heading in the right column is not read into the left line", async () => {
    const { elements } = await partitionPdf({ bytes: await buildNarrowGutterPdf() });
    const heading = elements.find((e) => e.text.includes("Document structures"));
    expect(heading?.text).toBe("2 Document structures");
    expect(heading?.type).toBe("Title");
  });
});

/**
 * Three columns whose lines do not share rows (the right column is set half a line lower, as a brochure's columns
 * often are): no row fills the two right columns together, so they only read as prose once they split again.
 */
const buildThreeColumnPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const put = (text: string, x: number, top: number, size: number, f = font) =>
    page.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
  const columns = [
    { x: 40, shift: 0, heading: "What is a column?" },
    { x: 226, shift: 0, heading: "Why read them apart?" },
    { x: 412, shift: 7, heading: "How is it checked?" },
  ];
  columns.forEach(({ x, shift, heading }, c) => {
    put(heading, x, 80 + shift, 14, bold);
    fitLines(font, 150, 20 - 4 * c).forEach((line, i) => put(line, x, 104 + shift + i * 14, 10));
  });
  return doc.save();
};

describe("three columns on rows of their own", () => {
  it("reads each column whole, so the headings side by side stay three headings", async () => {
    const { elements } = await partitionPdf({ bytes: await buildThreeColumnPdf() });
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toEqual(["What is a column?", "Why read them apart?", "How is it checked?"]);
  });
});

/**
 * An article's prose, 340 pt wide, beside an infobox: a label and its value a row, a long value wrapped onto lines of
 * its own under it. The prose lines are too wide to count in the search for a gutter, and the box is no prose.
 */
const buildInfoboxPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const put = (text: string, x: number, top: number, size: number) =>
    page.drawText(text, { x, y: PAGE.height - top - size, size, font });
  fitLines(font, 340, 40).forEach((line, i) => put(line, 40, 80 + i * 16, 10));
  const facts: [string, string][] = [
    ["Developer(s)", "Mozilla"],
    ["Initial release", "2 July 2011"],
    ["Stable release", "4.0.379"],
    ["", "December 31,"],
    ["", "2023"],
    ["Repository", "github.com"],
    ["Written in", "JavaScript,"],
    ["", "CSS, HTML"],
    ["Platform", "JavaScript"],
    ["", "engine, web"],
    ["", "browser"],
    ["Size", "3.94 MB"],
    ["Type", "PDF viewer"],
    ["License", "Apache"],
  ];
  facts.forEach(([label, value], i) => {
    if (label) put(label, 400, 120 + i * 18, 9);
    put(value, 480, 120 + i * 18, 9);
  });
  return doc.save();
};

describe("a box of facts beside the prose", () => {
  it("reads the prose apart from the box, and the box's labels beside their values", async () => {
    const { elements } = await partitionPdf({ bytes: await buildInfoboxPdf() });
    const text = elements.filter((e) => e.type !== "Table").map((e) => e.text);
    expect(text.filter((t) => /Developer|Repository|Mozilla|Apache/.test(t))).toEqual([]);
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables.map((t) => t.html).join("")).toContain("<td>Repository</td><td>github.com</td>");
  });
});

/**
 * The last page of a two-column paper: the left column runs down the page, the right one stops after six lines (the
 * end of the references), and a heading in the left column shares a row with the right column's last line.
 */
const buildShortColumnPdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const put = (text: string, x: number, top: number, size: number, f = font) =>
    page.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
  fitLines(font, 220, 30).forEach((line, i) => {
    if (i === 5) put("3 Discussion", 72, 100 + i * 14, 10, bold);
    else put(line, 72, 100 + i * 14, 10);
  });
  fitLines(font, 220, 6).forEach((line, i) => put(line, 312, 100 + i * 14, 10));
  return doc.save();
};

describe("a short column beside a full one", () => {
  it("reads the short column apart, so the left column's heading is not joined to its last line", async () => {
    const { elements } = await partitionPdf({ bytes: await buildShortColumnPdf() });
    const heading = elements.find((e) => e.text.includes("Discussion"));
    expect(heading?.text).toBe("3 Discussion");
    expect(heading?.type).toBe("Title");
  });
});
