import { describe, expect, it } from "vitest";
import type { PageGraphics } from "./figures";
import { pagesNeedingOcr } from "./scan-pages";
import type { TextLayerVerdict } from "./soundness";

const page = (images: { left: number; top: number; right: number; bottom: number }[]): PageGraphics =>
  ({ width: 600, height: 800, images: images.map((box) => ({ box, pixelWidth: 1, pixelHeight: 1 })) }) as PageGraphics;

describe("pages that need OCR", () => {
  it("reads the drawing only of sound pages with little text, and OCRs those under a page-sized picture", async () => {
    const verdicts = new Map<number, TextLayerVerdict>([
      [1, { chars: 2400, sound: true, reason: "text" }],
      [2, { chars: 3, sound: false, reason: "no-text" }],
      [3, { chars: 40, sound: true, reason: "text" }],
      [4, { chars: 60, sound: true, reason: "text" }],
      [5, { chars: 1800, sound: false, reason: "garbled" }],
      [6, { chars: 30, sound: true, reason: "text" }],
    ]);
    const asked: number[] = [];
    const graphicsOf = (n: number) => {
      asked.push(n);
      if (n === 3) return Promise.resolve(page([{ left: 0, top: 0, right: 600, bottom: 800 }]));
      // Page 4: a figure, not the page. Page 6: a drawing that cannot be read is no reason to OCR.
      if (n === 4) return Promise.resolve(page([{ left: 100, top: 100, right: 400, bottom: 400 }]));
      return Promise.reject(new Error("unreadable drawing"));
    };
    expect(await pagesNeedingOcr(verdicts, graphicsOf)).toEqual([2, 3, 5]);
    // Text pages and pages already known to need OCR cost no look at their drawing.
    expect(asked).toEqual([3, 4, 6]);
  });
});
