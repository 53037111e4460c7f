import { describe, expect, it } from "vitest";
import { deeplyNested, nestedForm } from "@/server/testing/pathological-pdfs";
import { partitionDocument } from "../partition";
import { renderPageImage } from "../page-image";

/**
 * Drawings that held pdfjs for half an hour: graphics states nested hundreds of thousands deep (pdfjs kept them as a
 * prototype chain; `pdftotext` reads such a page in 0.24 s). PDFium reads them, text included. What they produce is
 * checked here; the time limits only catch a hang (the pdfjs path took half an hour). Their speed, next to the same
 * PDF without the nesting, is `BENCH_ONLY=pathological npm run bench` (bench/pathological.ts).
 */

describe("pathological drawings", () => {
  it("reads a page of 200,000 nested graphics states, its text included, and draws it", async () => {
    const bytes = await deeplyNested(200_000);
    for (const method of ["basic", "auto"] as const) {
      const result = await partitionDocument({ bytes, fileName: "deep.pdf", fileType: "pdf", method });
      expect(result.elements.some((e) => e.pageNumber === 1 && e.text.includes("Sandstone Report"))).toBe(true);
      expect(result.elements.some((e) => e.pageNumber === 2 && e.text.includes("deep"))).toBe(true);
    }
    const shot = await renderPageImage({ bytes, fileType: "pdf", pageNumber: 2, width: 300 });
    expect(shot.width).toBe(300);
  }, 180_000);

  it("reads a page that draws a form XObject nested 100,000 levels deep", async () => {
    const bytes = await nestedForm(100_000);
    const result = await partitionDocument({ bytes, fileName: "form.pdf", fileType: "pdf", method: "basic" });
    expect(result.elements.some((e) => e.text.includes("Sandstone Report"))).toBe(true);
  }, 120_000);
});
