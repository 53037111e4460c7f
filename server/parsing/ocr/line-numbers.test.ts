import { afterAll, describe, expect, it } from "vitest";
import { shutdownOcr } from "./engine";
import { blankPage, readTestPage } from "./test-fixtures";

/**
 * A transcript page at 200 dpi: line numbers 1–25 down the left margin, text beside the first lines only, monospace.
 * At this size and spacing Tesseract's layout analysis takes the column of numbers for vertical text.
 */
const LINES = [
  "IN THE COURT OF APPEALS OF THE STATE",
  "- - - - - - - - - - - - - - - - x",
  "NORTHERN FREIGHT COMPANY,        :",
  "            Petitioner           :",
  "     v.                          :  No. 21-4410",
  "HARBOUR AUTHORITY.               :",
  "- - - - - - - - - - - - - - - - x",
  "                 Portland, Oregon",
  "                 Monday, March 8, 2021",
  "",
  "      The above-entitled matter came on for oral",
  "argument before the court at 10:02 a.m.",
];

type Geometry = {
  width: number;
  height: number;
  dpi: number;
  font: number;
  top: number;
  gap: number;
  numbers: number;
  text: number;
};
const AT_200_DPI: Geometry = {
  width: 1700,
  height: 2200,
  dpi: 200,
  font: 34,
  top: 180,
  gap: 72,
  numbers: 290,
  text: 350,
};
const AT_150_DPI: Geometry = {
  width: 1275,
  height: 1650,
  dpi: 150,
  font: 22,
  top: 110,
  gap: 54,
  numbers: 140,
  text: 200,
};

const drawTranscript = (g: Geometry): Buffer => {
  const { canvas, ctx } = blankPage(g.width, g.height);
  ctx.font = `${g.font}px "DejaVu Sans Mono"`;
  for (let n = 1; n <= 25; n++) {
    const y = g.top + (n - 1) * g.gap;
    ctx.textAlign = "right";
    ctx.fillText(String(n), g.numbers, y);
    ctx.textAlign = "left";
    ctx.fillText(LINES[n - 1] ?? "", g.text, y);
  }
  return canvas.toBuffer("image/png");
};

/** A page of body text with an identifier printed up its left margin, turned a quarter (an arXiv stamp). */
const STAMP = "arXiv:2101.04567v2 [cs.CL] 12 Jan 2021";
const drawStampedPage = (): Buffer => {
  const { canvas, ctx } = blankPage(1700, 2200);
  ctx.font = '30px "DejaVu Serif"';
  for (let i = 0; i < 12; i++)
    ctx.fillText("Retrieval quality depends on how well each page is parsed.", 300, 300 + i * 60);
  ctx.save();
  ctx.translate(120, 1500);
  ctx.rotate(-Math.PI / 2);
  ctx.font = '44px "DejaVu Serif"';
  ctx.fillText(STAMP, 0, 0);
  ctx.restore();
  return canvas.toBuffer("image/png");
};

const wordsOf = (page: Awaited<ReturnType<typeof readTestPage>>) =>
  page.units.flatMap((u) => u.lines.flatMap((l) => l.words.map((w) => w.text)));

describe("line numbers down a scanned page's margin", () => {
  afterAll(() => shutdownOcr());

  it("come out as the numbers, not as a vertical reading of stacked digits", async () => {
    const page = await readTestPage(drawTranscript(AT_200_DPI), AT_200_DPI);
    const tokens = wordsOf(page);
    const numbers = tokens.filter((t) => /^\d+$/.test(t)).map(Number);
    for (let n = 1; n <= 25; n++) expect(numbers).toContain(n);
    expect(tokens).toContain("21-4410");
  }, 180_000);

  it("make no table of the lines they number", async () => {
    const page = await readTestPage(drawTranscript(AT_200_DPI), AT_200_DPI, true);
    expect(page.tables).toEqual([]);
    const tokens = wordsOf(page);
    for (let n = 1; n <= 25; n++) expect(tokens).toContain(String(n));
  }, 180_000);

  it("come out when Tesseract drops them as specks (150 dpi): each is read on its own", async () => {
    const page = await readTestPage(drawTranscript(AT_150_DPI), AT_150_DPI);
    const tokens = wordsOf(page);
    const numbers = tokens.filter((t) => /^\d+$/.test(t)).map(Number);
    for (let n = 1; n <= 25; n++) expect(numbers).toContain(n);
  }, 180_000);

  it("leave text that really runs up the margin to its vertical reading", async () => {
    const page = await readTestPage(drawStampedPage(), AT_200_DPI);
    const text = page.units.map((u) => u.lines.map((l) => l.text).join(" ")).join(" ");
    expect(text).toContain("2101.04567");
  }, 180_000);
});
