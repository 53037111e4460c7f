import { afterAll, describe, expect, it } from "vitest";
import { shutdownOcr } from "./engine";
import { blankPage, readTestPage } from "./test-fixtures";

/**
 * A scanned paper's first page at 200 dpi: a title, two authors centred over the two text columns, then the
 * columns. Tesseract reads each author with the column under it (left author, left column, right author, right
 * column); the page's reading order has both authors before the text.
 */
const WIDTH = 1700;
const HEIGHT = 1300;
const AUTHORS = [
  ["Anna Lindqvist", "Harbor University", "anna@harbor.edu"],
  ["Bruno Keller", "Lakeside Institute", "bruno@lakeside.org"],
];
const COLUMN_WORDS = [
  "Scanned papers are read by optical character",
  "recognition before their text is split into",
  "passages, and the order of the passages is",
  "the order in which a reader meets them on",
  "the page, column after column, top to end.",
  "An author block above the columns belongs",
  "before both of them, as the title does too,",
  "so that the text below reads as it should.",
];

const THREE = [...AUTHORS, ["Chen Wu", "Northfield College", "chen@northfield.ac"]];

const drawPaper = (authors = AUTHORS, centres = [480, 1220]): Buffer => {
  const { canvas, ctx } = blankPage(WIDTH, HEIGHT);
  ctx.textAlign = "center";
  ctx.font = '48px "DejaVu Serif"';
  ctx.fillText("Reading Order of Scanned Papers", WIDTH / 2, 120);
  ctx.font = '30px "DejaVu Serif"';
  authors.forEach((author, col) =>
    author.forEach((text, row) => ctx.fillText(text, centres[col] ?? 0, 260 + row * 44)),
  );
  ctx.textAlign = "left";
  ctx.font = '26px "DejaVu Serif"';
  COLUMN_WORDS.forEach((text, row) => {
    ctx.fillText(`Left ${text}`, 150, 520 + row * 40);
    ctx.fillText(`Right ${text}`, 900, 520 + row * 40);
  });
  return canvas.toBuffer("image/png");
};

/** The page's text units in reading order, joined. */
const readText = async (png: Buffer) => {
  const page = await readTestPage(png, { width: WIDTH, height: HEIGHT, dpi: 200 });
  return page.units.map((u) => u.text).join(" ");
};

describe("reading order of a scanned paper read by Tesseract", () => {
  afterAll(() => shutdownOcr());

  it("reads the authors centred over the text columns before the columns, and the columns one after the other", async () => {
    const text = await readText(drawPaper());
    const at = (s: string) => text.indexOf(s);
    for (const s of ["Papers", ...AUTHORS.flat(), "Left Scanned", "Right Scanned", "Right so that"])
      expect(at(s), `${s} in ${text}`).toBeGreaterThanOrEqual(0);
    expect(at("Papers")).toBeLessThan(at("Anna Lindqvist"));
    expect(at("anna@harbor.edu")).toBeLessThan(at("Bruno Keller"));
    expect(at("bruno@lakeside.org")).toBeLessThan(at("Left Scanned"));
    expect(at("Left so that")).toBeLessThan(at("Right Scanned"));
  }, 180_000);

  it("reads a three-column author block author by author, before the text columns", async () => {
    const text = await readText(drawPaper(THREE, [330, 850, 1370]));
    const at = (s: string) => text.indexOf(s);
    for (const s of [...THREE.flat(), "Left Scanned", "Right Scanned"])
      expect(at(s), `${s} in ${text}`).toBeGreaterThanOrEqual(0);
    expect(at("Anna Lindqvist")).toBeLessThan(at("Harbor University"));
    expect(at("anna@harbor.edu")).toBeLessThan(at("Bruno Keller"));
    expect(at("bruno@lakeside.org")).toBeLessThan(at("Chen Wu"));
    expect(at("chen@northfield.ac")).toBeLessThan(at("Left Scanned"));
    expect(at("Left so that")).toBeLessThan(at("Right Scanned"));
  }, 180_000);
});
