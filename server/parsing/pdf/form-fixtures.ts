import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";

/**
 * PDFs whose text lines up like cells without being a table (a form's fields, key/value lines, prose beside an
 * infobox), and tables with row groups, built in code for forms.test.ts, row-groups.test.ts and grid-groups.test.ts (pdf-lib is a dev
 * dependency; nothing in the app imports this). Positions are top-left based like the parser's output.
 */

const WIDTH = 612;
const HEIGHT = 792;
const SIZE = 10;

type Cell = { text: string; x: number; align?: "right" };

const start = async () => {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  return { doc, regular, bold, page: doc.addPage([WIDTH, HEIGHT]) };
};

const row = (page: PDFPage, font: PDFFont, top: number, cells: Cell[], size = SIZE) => {
  for (const cell of cells) {
    const width = font.widthOfTextAtSize(cell.text, size);
    const x = cell.align === "right" ? cell.x - width : cell.x;
    page.drawText(cell.text, { x, y: HEIGHT - top - size, size, font });
  }
};

/** Words spread over [left, right] like a justified line: wide, uneven spaces between them. */
const justified = (font: PDFFont, text: string, left: number, right: number): Cell[] => {
  const words = text.split(" ");
  const widths = words.map((w) => font.widthOfTextAtSize(w, SIZE));
  const gap = (right - left - widths.reduce((a, b) => a + b, 0)) / (words.length - 1);
  let x = left;
  return words.map((text, i) => {
    const cell = { text, x };
    x += (widths[i] ?? 0) + gap;
    return cell;
  });
};

const PARAGRAPH = "The fields below are filled in by the applicant; the office fills in the rest of the form.";

/**
 * A form: a group label, a row of check boxes' labels, a wide gap where the boxes are drawn, the next group's label
 * ending in a colon and its row of labels. `gap` is the space between the first row and the second label.
 */
export const buildFieldGroupsPdf = async (gap = 60): Promise<Uint8Array> => {
  const { doc, regular, bold, page } = await start();
  row(page, regular, 72, [{ text: PARAGRAPH, x: 72 }]);
  row(page, bold, 120, [{ text: "Radio CheckBoxes:", x: 72 }]);
  const options = (top: number, extra: Cell[] = []) =>
    row(page, regular, top, [
      { text: "Option 1", x: 90 },
      { text: "Option 2", x: 190 },
      { text: "Option 3", x: 290 },
      ...extra,
    ]);
  options(140);
  row(page, bold, 140 + gap, [{ text: "Ordinary Radio Buttons:", x: 72 }]);
  options(160 + gap, [{ text: "Clear", x: 390 }]);
  row(page, regular, 220 + gap, [{ text: "Copyright 2007 by the form's author.", x: 72 }]);
  return doc.save();
};

/** Key/value lines: labels ending in a colon, values set in a second column, one of them long and ragged. */
export const buildKeyValuePdf = async (): Promise<Uint8Array> => {
  const { doc, regular, page } = await start();
  row(page, regular, 72, [{ text: PARAGRAPH, x: 72 }]);
  const fields: [string, string][] = [
    ["Name:", "Jane Smith"],
    ["Date of birth:", "12 March 1980"],
    ["Address:", "12 High Street, Springfield"],
    ["Phone:", "555 0100"],
    ["Occupation:", "Engineer"],
  ];
  fields.forEach(([label, value], i) =>
    row(page, regular, 110 + 16 * i, [
      { text: label, x: 72 },
      { text: value, x: 200 },
    ]),
  );
  row(page, regular, 210, [{ text: PARAGRAPH, x: 72 }]);
  return doc.save();
};

/**
 * An article's text beside an infobox (label and value on each line), as a browser prints a Wikipedia page: some
 * lines of the article (every other one, or `every` line) are justified, their words spread apart.
 */
export const buildProseBesidePdf = async (every: 1 | 2 = 2): Promise<Uint8Array> => {
  const { doc, regular, bold, page } = await start();
  const prose = [
    "The library renders documents in the web browser with",
    "many web applications, including viewers, that use the",
    "canvas element of the page for fast rendering of text",
    "and images, which lets it show a document in place,",
    "without a plugin of its own or a separate program.",
    "It is written in a language that every browser runs.",
  ];
  const box: [string, string][] = [
    ["Developer(s)", "Mozilla"],
    ["Initial release", "2 July 2011"],
    ["Written in", "JavaScript"],
    ["Platform", "Web browser"],
    ["Type", "PDF viewer"],
    ["License", "Apache 2.0"],
  ];
  prose.forEach((line, i) => {
    const top = 100 + 14 * i;
    const text: Cell[] = i % every === every - 1 ? justified(regular, line, 72, 330) : [{ text: line, x: 72 }];
    const [label, value] = box[i] ?? ["", ""];
    row(page, regular, top, [...text, { text: value, x: 460 }]);
    row(page, bold, top, [{ text: label, x: 370 }]);
  });
  return doc.save();
};

/**
 * The end of a paragraph beside an infobox's long value that wraps: one justified line, one plain, the last short
 * line, then a section heading beside the next entry. Only the justified line's lower-case words show it is prose.
 */
export const buildParagraphEndBesidePdf = async (): Promise<Uint8Array> => {
  const { doc, regular, bold, page } = await start();
  row(page, regular, 100, [
    { text: "Repository", x: 370 },
    { text: "github.com", x: 460 },
  ]);
  row(page, regular, 114, [
    ...justified(regular, "Many web applications, including viewers, use it and", 72, 330),
    { text: "/mozilla/pdf.js", x: 460 },
  ]);
  row(page, regular, 128, [
    { text: "LinkedIn Learning uses the library to preview", x: 72 },
    { text: "(https://github.c", x: 460 },
  ]);
  row(page, regular, 142, [
    { text: "documents.", x: 72 },
    { text: "om/mozilla/pdf.js)", x: 460 },
  ]);
  row(page, bold, 160, [{ text: "Behavior", x: 72 }]);
  row(page, regular, 160, [
    { text: "Written in", x: 370 },
    { text: "JavaScript", x: 460 },
  ]);
  return doc.save();
};

/**
 * A table without rules whose first column labels groups of three rows ("1991" beside "Men", "Women", "All"):
 * `first` sets each label on its group's first row, `centred` on the middle row, `between` between the middle two
 * of four rows (a line of its own).
 */
export const buildRowGroupsPdf = async (place: "first" | "centred" | "between"): Promise<Uint8Array> => {
  const { doc, regular, bold, page } = await start();
  row(page, regular, 72, [{ text: PARAGRAPH, x: 72 }]);
  const figures = (a: string, b: string): Cell[] => [
    { text: a, x: 330, align: "right" },
    { text: b, x: 420, align: "right" },
  ];
  row(page, bold, 110, [
    { text: "Year", x: 72 },
    { text: "Group", x: 150 },
    { text: "Employed", x: 280 },
    { text: "Unemployed", x: 360 },
  ]);
  const series = place === "between" ? ["Men", "Women", "Young", "All"] : ["Men", "Women", "All"];
  let top = 130;
  ["1991", "1996", "2001"].forEach((year, g) => {
    const labelTop = place === "first" ? top : place === "centred" ? top + 14 : top + 14 * ((series.length - 1) / 2);
    row(page, regular, labelTop, [{ text: year, x: 72 }]);
    series.forEach((name, i) => {
      row(page, regular, top, [{ text: name, x: 150 }, ...figures(`${40 + g + i}.${i}`, `${5 + g}.${i + 1}`)]);
      top += 14;
    });
    top += 4;
  });
  row(page, regular, top + 30, [{ text: PARAGRAPH, x: 72 }]);
  return doc.save();
};

/**
 * A ruled table whose first column labels groups of three rows, vertically centred on them, that column ruled at
 * the groups' edges only and without a vertical line on its left (as Eurostat's country reports set it): every other
 * row rule starts at the label column's right edge.
 */
export const buildRuledRowGroupsPdf = async (): Promise<Uint8Array> => {
  const { doc, regular, bold, page } = await start();
  const rule = (x0: number, y0: number, x1: number, y1: number) =>
    page.drawLine({ start: { x: x0, y: HEIGHT - y0 }, end: { x: x1, y: HEIGHT - y1 }, thickness: 0.5 });
  row(page, regular, 72, [{ text: PARAGRAPH, x: 72 }]);
  const xs = [130, 230, 330, 430, 530];
  const top = 110;
  const pitch = 16;
  const rows = 1 + 3 * 3;
  const bottom = top + pitch * rows;
  rule(230, top, 530, top);
  for (const x of xs) rule(x, x === 130 ? top + pitch : top, x, bottom);
  row(page, bold, top + 4, [
    { text: "Employed", x: 240 },
    { text: "Industry", x: 340 },
    { text: "Services", x: 440 },
  ]);
  ["1991", "1996", "2001"].forEach((year, g) => {
    const groupTop = top + pitch * (1 + 3 * g);
    rule(72, groupTop, 530, groupTop);
    row(page, regular, groupTop + pitch + 4, [{ text: year, x: 80 }]);
    ["Men", "Women", "Total"].forEach((name, i) => {
      const y = groupTop + pitch * i;
      if (i > 0) rule(130, y, 530, y);
      row(page, regular, y + 4, [
        { text: name, x: 140 },
        { text: `${10 + g}.${i}`, x: 300, align: "right" },
        { text: `${40 + g}.${i}`, x: 400, align: "right" },
        { text: `${50 + g}.${i}`, x: 500, align: "right" },
      ]);
    });
  });
  rule(72, bottom, 530, bottom);
  row(page, regular, bottom + 30, [{ text: PARAGRAPH, x: 72 }]);
  return doc.save();
};
