import { PDFDocument, PDFHexString, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";

/**
 * PDFs built in code for the parser's unit tests (pdf-lib is a dev dependency; nothing in the app imports this).
 * Coordinates passed in are top-left based like the parser's output; pdf-lib's bottom-left origin is handled here.
 */

export const PAGE = { width: 612, height: 792 } as const;

type Fonts = { regular: PDFFont; bold: PDFFont };

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

/** A page with no text at all: what a scan looks like to a text-layer parser. */
export const buildBlankPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([PAGE.width, PAGE.height]);
  page.drawRectangle({ x: 100, y: 100, width: 200, height: 300 });
  return doc.save();
};

/**
 * Declares the standard security handler with a user password we do not know; pdfjs must then ask for one. The
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
