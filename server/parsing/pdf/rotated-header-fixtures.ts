import { degrees, type PDFFont, type PDFPage } from "pdf-lib";
import { row, start } from "./unruled-fixtures";

/**
 * PDFs whose unruled tables head their value columns with turned headings (rotated-headers.test.ts; pdf-lib is a
 * dev dependency, nothing in the app imports this). Positions are top-left based like the parser's output.
 */

const HEIGHT = 792;
const COLUMNS = [250, 300, 350, 400] as const;
/** The baseline of the header row: the horizontal stub heading's, and the foot of each turned heading. */
const FOOT = 160;

const ROWS = [
  ["Baseline", "71.2", "68.4", "70.1", "69.2"],
  ["Ours", "78.9", "77.0", "76.5", "76.7"],
  ["Ours + pretraining", "81.3", "80.2", "79.8", "80.0"],
] as const;

/**
 * A turned heading over the column centred at `x`: read bottom to top (90°) from its foot on the header row, or top
 * to bottom (270°) ending there. Each entry of `lines` is one turned line, the first nearest the column's start.
 */
const turned = (page: PDFPage, font: PDFFont, x: number, lines: readonly string[], angle: 90 | 270) => {
  const size = 10;
  const step = 11;
  lines.forEach((line, i) => {
    const offset = (i - (lines.length - 1) / 2) * step;
    if (angle === 90) {
      page.drawText(line, { x: x + 3.5 + offset, y: HEIGHT - FOOT, size, font, rotate: degrees(90) });
    } else {
      const length = font.widthOfTextAtSize(line, size);
      page.drawText(line, { x: x - 3.5 - offset, y: HEIGHT - FOOT + length, size, font, rotate: degrees(270) });
    }
  });
};

/**
 * A results table: a stub column headed "Model" on the header row, and four value columns whose headings are turned
 * (`angle`), "Accuracy" wrapped over two turned lines when `wrapped`. A "Preprint under review" stamp runs up the
 * left margin, and a paragraph stands above and below the table.
 */
export const buildRotatedHeaderPdf = async ({
  angle = 90,
  wrapped = false,
}: { angle?: 90 | 270; wrapped?: boolean } = {}): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 60, [
    { text: "The scores of the models on the held-out set are shown below, one row per model.", x: 72 },
  ]);
  page.drawText("Preprint under review", { x: 30, y: 300, size: 10, font: regular, rotate: degrees(90) });
  row(page, regular, 10, FOOT - 10, [{ text: "Model", x: 72 }]);
  const headings = [wrapped ? ["Top-1", "accuracy"] : ["Accuracy"], ["Precision"], ["Recall"], ["F1 score"]];
  headings.forEach((lines, i) => turned(page, regular, COLUMNS[i] ?? 0, lines, angle));
  let top = 170;
  for (const [name, ...values] of ROWS) {
    row(page, regular, 10, top, [
      { text: name, x: 72 },
      ...values.map((text, i) => ({ text, x: COLUMNS[i] ?? 0, align: "centre" as const })),
    ]);
    top += 14;
  }
  row(page, regular, 10, top + 20, [
    { text: "Pretraining helps every metric; the gain in recall is the largest of the four.", x: 72 },
  ]);
  return doc.save();
};
