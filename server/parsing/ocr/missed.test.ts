import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { findMissedText } from "./missed";
import { toGray } from "./raster";
import type { OcrWord } from "./types";

describe("text OCR left out", () => {
  it("finds an uncovered page number; ignores covered text, specks, lines and pictures", async () => {
    GlobalFonts.registerFromPath("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVu Sans");
    const canvas = createCanvas(800, 1000);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, 800, 1000);
    ctx.fillStyle = "#000000";
    ctx.font = '24px "DejaVu Sans"';
    ctx.textBaseline = "top";
    ctx.fillText("A line of text that OCR did read", 80, 100);
    ctx.fillText("17", 390, 940); // the page number OCR dropped
    ctx.fillRect(500, 500, 3, 3); // a speck
    ctx.fillRect(80, 600, 600, 2); // a rule
    ctx.fillRect(100, 700, 200, 150); // a picture
    const gray = await toGray(canvas.toBuffer("image/png"));
    const read: OcrWord = {
      text: "A line of text that OCR did read",
      left: 80,
      top: 100,
      right: 470,
      bottom: 128,
      confidence: 95,
    };
    const rule = { from: 80, to: 680, at: 600, atEnd: 601 };
    const patches = findMissedText({
      gray,
      words: [read],
      rulings: { horizontal: [rule], vertical: [] },
      lineHeight: 28,
    });
    expect(patches).toHaveLength(1);
    const [p] = patches;
    expect(p!.left).toBeLessThanOrEqual(394);
    expect(p!.right).toBeGreaterThanOrEqual(410);
    expect(p!.top).toBeLessThanOrEqual(942);
    expect(p!.bottom).toBeGreaterThanOrEqual(958);
    expect(p!.bottom - p!.top).toBeLessThan(40);
  });
});
