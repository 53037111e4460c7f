import { afterAll, describe, expect, it } from "vitest";
import { shutdownOcr } from "./engine";
import { rulingsToPaint } from "./rulings";
import { blankPage, readTestPage } from "./test-fixtures";

/**
 * A paper's first page scanned at 300 dpi: a large bold title over body text. The stems of the title's tall letters
 * are as dark, narrow and long as a short vertical rule; painted out as rules before OCR, "hidden" read "niiccen".
 */
const WIDTH = 2550;
const HEIGHT = 3300;
const TITLE = "Hidden held fields of the digital PDF";
const BODY = [
  "Tagged files describe their headings, lists and tables",
  "so that a reader or a parser finds the structure again.",
  "Few producers write those tags, and fewer check them.",
];

const drawPage = (): Buffer => {
  const { canvas, ctx } = blankPage(WIDTH, HEIGHT);
  ctx.font = '90px "DejaVu Sans Bold"';
  ctx.fillText(TITLE, 150, 120);
  ctx.font = '30px "DejaVu Serif"';
  BODY.forEach((text, row) => ctx.fillText(text, 150, 400 + row * 42));
  return canvas.toBuffer("image/png");
};

describe("a large bold title on a scan", () => {
  afterAll(() => shutdownOcr());

  it("keeps its letters' stems: they are not ruling lines to paint out before OCR", async () => {
    const page = await readTestPage(drawPage(), { width: WIDTH, height: HEIGHT, dpi: 300 });
    const text = page.units.map((u) => u.text).join(" ");
    expect(text).toContain(TITLE);
    expect(text).toContain(BODY[1]);
  }, 120_000);
});

describe("rulingsToPaint", () => {
  const horizontal = [{ from: 100, to: 900, at: 200, atEnd: 202 }];

  it("keeps a vertical that meets a horizontal or runs over several lines, drops a short lone one", () => {
    const grid = { from: 203, to: 260, at: 500, atEnd: 502 };
    const column = { from: 300, to: 1200, at: 1000, atEnd: 1002 };
    const stem = { from: 400, to: 460, at: 1500, atEnd: 1508 };
    const painted = rulingsToPaint({ horizontal, vertical: [grid, column, stem] }, 40);
    expect(painted.vertical).toEqual([grid, column]);
    expect(painted.horizontal).toEqual(horizontal);
  });
});
