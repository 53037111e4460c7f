import { degrees, PDFDocument, PDFHexString, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";

/**
 * PDFs built in code for the parser's unit tests (pdf-lib is a dev dependency; nothing in the app imports this).
 * Coordinates passed in are top-left based like the parser's output; pdf-lib's bottom-left origin is handled here.
 */

export const PAGE = { width: 612, height: 792 } as const;

type Fonts = { regular: PDFFont; bold: PDFFont };

/** Text at `x`, its box's top `top` points from the page's top (the parser's coordinates), in `size` and `font`. */
export const put = (page: PDFPage, text: string, x: number, top: number, size: number, font: PDFFont) =>
  page.drawText(text, { x, y: PAGE.height - top - size, size, font });

/** A page in Helvetica with four lines of prose at a 14 pt pitch from 100 pt down, for the lines under test. */
export const pageWithProse = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
  return { doc, font, page };
};

const draw = (
  page: PDFPage,
  text: string,
  { x, top, size, font }: { x: number; top: number; size: number; font: PDFFont },
) => page.drawText(text, { x, y: PAGE.height - top - size, size, font });

/** Greedy word wrap to a width, the way a typesetter fills lines. */
const wrap = (text: string, font: PDFFont, size: number, width: number): string[] => {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
};

const embedFonts = async (doc: PDFDocument): Promise<Fonts> => ({
  regular: await doc.embedFont(StandardFonts.Helvetica),
  bold: await doc.embedFont(StandardFonts.HelveticaBold),
});

/**
 * A ToUnicode map that reads Helvetica's codes from 0xC0 on as the given texts (a letter each, or two for a
 * ligature): pages in scripts Helvetica does not have (Hebrew, Arabic, Chinese) without such a font in the test.
 */
export const toUnicodeMap = (doc: PDFDocument, shown: readonly string[]) => {
  const hex = (text: string) => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(4, "0")).join("");
  const pairs = shown.map((text, i) => `<${(0xc0 + i).toString(16)}> <${hex(text)}>`);
  const cmap = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
    "1 begincodespacerange <00> <FF> endcodespacerange",
    `${pairs.length} beginbfchar ${pairs.join(" ")} endbfchar`,
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  return doc.context.register(doc.context.stream(cmap));
};

export const BODY =
  "Quarry parses uploaded documents into typed elements, splits them into chunks and indexes every chunk for " +
  "hybrid retrieval. Each element keeps the page it came from and the box it occupies on that page.";

/**
 * Three pages: a running header and a page-number footer on each, a large title on page 1, a bold section heading
 * and a bulleted list on page 2, body paragraphs everywhere.
 */
export const buildReportPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const { regular, bold } = await embedFonts(doc);
  for (let n = 1; n <= 3; n++) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    draw(page, "Quarry Engineering Notes - Internal", { x: 72, top: 30, size: 9, font: regular });
    draw(page, String(n), { x: 300, top: 755, size: 9, font: regular });
    let top = 90;
    if (n === 1) {
      draw(page, "Document Ingestion Report", { x: 72, top, size: 24, font: bold });
      top += 48;
    }
    if (n === 2) {
      draw(page, "Results and Findings", { x: 72, top, size: 13, font: bold });
      top += 26;
    }
    for (let p = 0; p < 3; p++) {
      for (const line of wrap(`Paragraph ${p + 1} of page ${n}. ${BODY}`, regular, 11, 468)) {
        draw(page, line, { x: 72, top, size: 11, font: regular });
        top += 14;
      }
      top += 12;
    }
    if (n === 2) {
      for (const item of ["First finding about parsing speed", "Second finding about chunk sizes"]) {
        draw(page, `• ${item}`, { x: 84, top, size: 11, font: regular });
        top += 16;
      }
    }
  }
  return doc.save();
};

/** One page in two columns: every left line says LEFT, every right line RIGHT, sharing baselines like LaTeX. */
export const buildTwoColumnPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const { regular, bold } = await embedFonts(doc);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  draw(page, "A Study of Column Layouts", { x: 150, top: 60, size: 18, font: bold });
  const left = wrap(`LEFT column begins here. ${BODY} ${BODY} ${BODY} LEFT column ends here.`, regular, 10, 230);
  const right = wrap(`RIGHT column begins here. ${BODY} ${BODY} ${BODY} RIGHT column ends here.`, regular, 10, 230);
  left.forEach((line, i) => draw(page, line, { x: 60, top: 110 + i * 12, size: 10, font: regular }));
  right.forEach((line, i) => draw(page, line, { x: 322, top: 110 + i * 12, size: 10, font: regular }));
  return doc.save();
};

/** A paragraph, then rows of three aligned columns (a borderless table), then another paragraph. */
export const buildTablePdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const { regular } = await embedFonts(doc);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  draw(page, "The table below lists the stored formats and their parsers.", {
    x: 72,
    top: 100,
    size: 11,
    font: regular,
  });
  const rows = [
    ["Format", "Parser", "Pages"],
    ["PDF", "pdfjs text layer", "yes"],
    ["HTML", "cheerio", "no"],
    ["CSV", "papaparse", "no"],
  ];
  rows.forEach((row, i) =>
    row.forEach((cell, j) => draw(page, cell, { x: 72 + j * 180, top: 140 + i * 16, size: 10, font: regular })),
  );
  draw(page, "Formats without pages report a null page number for every element.", {
    x: 72,
    top: 230,
    size: 11,
    font: regular,
  });
  return doc.save();
};

const line = (page: PDFPage, x0: number, top0: number, x1: number, top1: number) =>
  page.drawLine({
    start: { x: x0, y: PAGE.height - top0 },
    end: { x: x1, y: PAGE.height - top1 },
    thickness: 0.7,
    color: rgb(0, 0, 0),
  });

/** Column and row boundaries of buildGridTablePdf's table (points, top-left origin). */
export const GRID = { xs: [72, 200, 290, 380, 470], ys: [150, 170, 190, 222, 242, 262] } as const;

/**
 * A ruled table with what trips table parsers: a caption above it, a two-row header where "State" and a rotated
 * "Flag" span both rows and "Counts" spans two columns, a wrapped cell ("New South / Wales"), numbers with
 * separators, an empty cell and a mostly empty column; then a framed note (a box, not a table) and a page number.
 */
export const buildGridTablePdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const { regular, bold } = await embedFonts(doc);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const [x0, x1, x2, x3, x4] = GRID.xs;
  const [y0, y1, y2, y3, y4, y5] = GRID.ys;
  draw(page, "Table 2: Checks by state and year.", { x: 72, top: 128, size: 10, font: regular });
  for (const y of [y0, y2, y3, y4, y5]) line(page, x0, y, x4, y);
  line(page, x1, y1, x3, y1); // under "Counts" only: State and Flag span both header rows
  for (const x of [x0, x1, x3, x4]) line(page, x, y0, x, y5);
  line(page, x2, y1, x2, y5); // not through "Counts": it spans two columns
  const cell = (text: string, x: number, top: number, font = regular) =>
    draw(page, text, { x: x + 5, top, size: 9, font });
  cell("State", x0, y0 + 14, bold);
  cell("Counts", x1, y0 + 5, bold);
  cell("2014", x1, y1 + 5, bold);
  cell("2015", x2, y1 + 5, bold);
  page.drawText("Flag", { x: x3 + 45, y: PAGE.height - y1 - 12, size: 9, font: bold, rotate: degrees(90) });
  cell("New South", x0, y2 + 5);
  cell("Wales", x0, y2 + 17);
  cell("1,234", x1, y2 + 11);
  cell("0.955", x2, y2 + 11);
  cell("X", x3, y2 + 11);
  cell("Ohio", x0, y3 + 5);
  cell("2", x1, y3 + 5);
  cell("4", x2, y3 + 5);
  cell("Utah", x0, y4 + 5);
  cell("17", x1, y4 + 5);
  cell("X", x3, y4 + 5);
  draw(page, "The counts are checks run in each state, as reported by the states themselves.", {
    x: 72,
    top: 290,
    size: 11,
    font: regular,
  });
  // A framed note: four lines around two lines of text.
  line(page, 72, 330, 300, 330);
  line(page, 72, 380, 300, 380);
  line(page, 72, 330, 72, 380);
  line(page, 300, 330, 300, 380);
  draw(page, "Note: figures for 2015 are", { x: 80, top: 340, size: 10, font: regular });
  draw(page, "provisional until March.", { x: 80, top: 354, size: 10, font: regular });
  draw(page, "1", { x: 300, top: 755, size: 9, font: regular });
  return doc.save();
};

/** A page with no text at all: what a scan looks like to a text-layer parser. */
export const buildBlankPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([PAGE.width, PAGE.height]);
  page.drawRectangle({ x: 100, y: 100, width: 200, height: 300 });
  return doc.save();
};

/**
 * Declares the standard security handler with a user password we do not know; the engine must then ask for one. The
 * content is not really encrypted, which does not matter: the password check comes first.
 */
export const buildEncryptedPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const { regular } = await embedFonts(doc);
  draw(doc.addPage([PAGE.width, PAGE.height]), "secret", { x: 72, top: 72, size: 12, font: regular });
  const { context } = doc;
  const bytes32 = (seed: number) =>
    PDFHexString.of(
      Array.from({ length: 32 }, (_, i) => ((i * 37 + seed) % 256).toString(16).padStart(2, "0")).join(""),
    );
  const encrypt = context.obj({ Filter: "Standard", V: 1, R: 2, Length: 40, P: -44, O: bytes32(7), U: bytes32(91) });
  context.trailerInfo.Encrypt = context.register(encrypt);
  context.trailerInfo.ID = context.obj(
    [bytes32(3).asString().slice(0, 32), bytes32(3).asString().slice(0, 32)].map((h) => PDFHexString.of(h)),
  );
  return doc.save({ useObjectStreams: false });
};

/**
 * A ruled table as government reports set them: its caption ruled in as the first row across every column, column
 * headings wrapped over three lines inside one ruled header row, body rows with no rules between them, and a note
 * ruled in as the last row.
 */
export const buildRuledExhibitPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const { regular, bold } = await embedFonts(doc);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const xs = [72, 300, 400, 500] as const;
  const ys = [100, 130, 172, 220, 250] as const;
  for (const y of ys) line(page, xs[0], y, xs[3], y);
  for (const x of [xs[0], xs[3]]) line(page, x, ys[0], x, ys[4]);
  for (const x of [xs[1], xs[2]]) line(page, x, ys[1], x, ys[3]);
  const cell = (text: string, x: number, top: number, font = regular) =>
    draw(page, text, { x: x + 5, top, size: 9, font });
  cell("Exhibit 4", xs[0], ys[0] + 4, bold);
  cell(
    "Schools identified for improvement by their designation under the state's own system, 2006–07",
    xs[0],
    116,
    bold,
  );
  cell("Designation", xs[0], ys[1] + 15, bold);
  cell("Schools", xs[1], ys[1] + 4, bold);
  cell("identified", xs[1], ys[1] + 15, bold);
  cell("(n = 469)", xs[1], ys[1] + 26, bold);
  cell("Schools not", xs[2], ys[1] + 4, bold);
  cell("identified", xs[2], ys[1] + 15, bold);
  cell("(n = 918)", xs[2], ys[1] + 26, bold);
  const body = [
    ["Low-performing", "34%", "3%"],
    ["High-performing", "2%", "18%"],
    ["Other", "14%", "9%"],
  ];
  body.forEach((cells, i) => cells.forEach((text, c) => cell(text, xs[c] ?? 0, ys[2] + 4 + 14 * i)));
  cell("Exhibit reads: 34 percent of identified schools were low-performing.", xs[0], ys[3] + 10);
  draw(page, "The state systems and the federal one agree on most schools.", {
    x: 72,
    top: 280,
    size: 10,
    font: regular,
  });
  return doc.save();
};

/**
 * A partly ruled table: rules run across the whole table (row labels to last column), but vertical lines are drawn
 * only between the middle columns, so the row labels on the left and the last column on the right sit outside
 * the vertical lines. With `labelRules: "header"` only the rule under the header reaches the row labels.
 */
export const buildPartlyRuledPdf = async (labelRules: "all" | "header" = "all"): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const { regular, bold } = await embedFonts(doc);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  draw(page, "Real growth rate of the economy, in percent, by year.", { x: 72, top: 100, size: 10, font: regular });
  const xs = [72, 150, 280, 400, 520] as const;
  const ys = [130, 148, 166, 184, 202, 220] as const;
  line(page, xs[1], ys[0], xs[4], ys[0]);
  // Rules drawn cell by cell, as many producers do.
  for (const y of ys.slice(1))
    for (let c = labelRules === "all" || y === ys[1] ? 0 : 1; c < 4; c++) line(page, xs[c] ?? 0, y, xs[c + 1] ?? 0, y);
  for (const x of xs.slice(1, 4)) line(page, x, ys[0], x, ys[5]);
  const header = ["Finland", "EU-15", "EU-25"];
  header.forEach((text, c) => draw(page, text, { x: (xs[c + 1] ?? 0) + 40, top: ys[0] + 5, size: 9, font: bold }));
  const body = [
    ["1996", "3.7", "1.6", "1.7"],
    ["2000", "5.0", "3.9", "3.9"],
    ["2005", "1.5", "1.5", "1.6"],
    ["2006", "3.5", "2.0", "2.1"],
  ];
  body.forEach((cells, r) =>
    cells.forEach((text, c) =>
      draw(page, text, { x: (xs[c] ?? 0) + (c === 0 ? 4 : 50), top: (ys[r + 1] ?? 0) + 5, size: 9, font: regular }),
    ),
  );
  draw(page, "Growth was faster than in the union as a whole in every year shown.", {
    x: 72,
    top: 250,
    size: 10,
    font: regular,
  });
  return doc.save();
};
