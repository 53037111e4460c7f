import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { loadImage } from "@napi-rs/canvas";
import { PDFDocument, degrees } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { buildFigurePdf, buildMixedPdf, drawChart, FIGURE_BOX, PAGE, pngSize } from "../vision/test-fixtures";
import { extractFigures, figureBoxes } from "./figures";

const CORPUS = path.resolve(import.meta.dirname, "../../../../shared/corpus");

describe("figures of a PDF", () => {
  it("finds the embedded picture, not the logo, and cuts it out of the rendered page", async () => {
    const figures = await extractFigures(await buildFigurePdf());
    expect(figures).toHaveLength(1);
    const [figure] = figures;
    expect(figure).toMatchObject({ type: "Image", text: "", pageNumber: 1, pageLayout: PAGE });
    expect(figure?.boundingBox).toEqual(FIGURE_BOX);
    const png = Buffer.from(figure?.imgBase64 ?? "", "base64");
    // 300 × 200 pt at 150 dpi is 625 × 417 pixels; the crop takes whole pixels, rounding outwards.
    const size = pngSize(png);
    expect(Math.abs((size?.width ?? 0) - 625)).toBeLessThanOrEqual(2);
    expect(Math.abs((size?.height ?? 0) - 417)).toBeLessThanOrEqual(2);
    expect(figure?.metadata).toMatchObject({ source_image_width: 600, source_image_height: 400 });

    // The crop is the chart: its frame is black at the edge, the first bar (red) sits low on the left.
    const image = await loadImage(png);
    const { createCanvas } = await import("@napi-rs/canvas");
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(image, 0, 0);
    const pixel = (x: number, y: number) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3));
    const [r, g, b] = pixel(Math.round(image.width * 0.17), Math.round(image.height * 0.9));
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(80);
    expect(b).toBeLessThan(80);
    expect(Math.max(...pixel(Math.round(image.width / 2), 1))).toBeLessThan(90);
  });

  it("follows the transform of a rotated placement and limits to the pages asked for", async () => {
    const doc = await PDFDocument.create();
    doc.addPage([PAGE.width, PAGE.height]);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const chart = await doc.embedPng(drawChart(300, 200));
    // Rotated 90° counter-clockwise about its lower-left corner at (400, 300): it then spans x 200–400, y 300–600.
    page.drawImage(chart, { x: 400, y: 300, width: 300, height: 200, rotate: degrees(90) });
    const bytes = await doc.save();
    expect(await extractFigures(bytes, [1])).toEqual([]);
    const [figure] = await extractFigures(bytes, [2]);
    expect(figure?.pageNumber).toBe(2);
    expect(figure?.boundingBox).toEqual({ left: 200, top: PAGE.height - 600, width: 200, height: 300 });
  });

  it("takes no figure from a scanned page", async () => {
    expect(await extractFigures(await buildMixedPdf())).toEqual([]);
  });

  it("keeps one figure where the same box is painted twice", () => {
    const box = { left: 100, top: 100, right: 300, bottom: 250 };
    const found = figureBoxes({
      width: 612,
      height: 792,
      horizontalLines: [],
      verticalLines: [],
      marks: [],
      images: [
        { box, pixelWidth: 10, pixelHeight: 10 },
        { box: { ...box, right: 302 }, pixelWidth: 10, pixelHeight: 10 },
        { box: { left: -50, top: 500, right: 40, bottom: 700 }, pixelWidth: 10, pixelHeight: 10 },
      ],
    });
    // The third one is cut to 40 × 200 pt by the page edge: a sliver, not a figure.
    expect(found.map((f) => f.box)).toEqual([box]);
  });

  describe.runIf(existsSync(CORPUS))("corpus", () => {
    it("a page-sized scan is not a figure; a born-digital paper page has none", async () => {
      for (const name of ["loremipsum-flat-image-only.pdf", "layout-parser-paper-with-table.pdf"]) {
        const figures = await extractFigures(new Uint8Array(readFileSync(path.join(CORPUS, name))));
        expect(figures, name).toEqual([]);
      }
    });
  });
});
