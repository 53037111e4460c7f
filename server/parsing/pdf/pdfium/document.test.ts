import { describe, expect, it } from "vitest";
import { pdfDoc } from "@/server/testing/fixtures";
import { openPdf } from "./document";
import { loadPdfium } from "./module";
import { readPageText } from "./text";

describe("PDF engine", () => {
  it("stops a document whose engine call trapped, and gives the next document a new engine", async () => {
    const bytes = await pdfDoc({ pages: 2 });
    const engine = await loadPdfium();
    const doc = await openPdf(bytes);
    // A trap inside a page's reading (an abort, a stack overflow in the engine) surfaces as these errors.
    expect(() =>
      doc.withPage(1, () => {
        throw new WebAssembly.RuntimeError("unreachable");
      }),
    ).toThrow("The PDF engine failed on this page");
    expect(() => doc.withPage(2, () => "read")).toThrow("the PDF engine failed on an earlier page");
    doc.close();
    const next = await openPdf(bytes);
    try {
      expect(next.pdfium).not.toBe(engine);
      expect(readPageText(next, 1).runs.map((r) => r.text).join(" ")).toContain("Sandstone Report");
    } finally {
      next.close();
    }
  });

  it("refuses a file that is not a PDF with a sentence", async () => {
    await expect(openPdf(new TextEncoder().encode("not a pdf at all"))).rejects.toThrow(/not a readable PDF/);
  });
});
