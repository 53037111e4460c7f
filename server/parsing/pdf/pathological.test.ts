import { PDFDocument, PDFName } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfDoc } from "@/server/testing/fixtures";
import { partitionDocument } from "../partition";
import { renderPageImage } from "../page-image";

/**
 * Drawings that held pdfjs for half an hour: graphics states nested hundreds of thousands deep (pdfjs kept them as a
 * prototype chain; `pdftotext` reads such a page in 0.24 s). PDFium reads them in well under a second, text included.
 */

/** A 2-page text PDF whose page 2 also draws `depth` nested graphics states (generated, a few KB compressed). */
const deeplyNested = async (depth: number) => {
  const doc = await PDFDocument.load(await pdfDoc({ pages: 2 }));
  const page = doc.getPage(1);
  const ops = `${"q ".repeat(depth)}BT /F1 12 Tf 72 700 Td (deep) Tj ET ${"Q ".repeat(depth)}`;
  const deep = doc.context.register(doc.context.flateStream(ops));
  page.node.set(PDFName.of("Contents"), doc.context.obj([page.node.get(PDFName.of("Contents"))!, deep]));
  return new Uint8Array(await doc.save());
};

describe("pathological drawings", () => {
  it("reads a page of 200,000 nested graphics states in seconds, its text included", async () => {
    const bytes = await deeplyNested(200_000);
    for (const method of ["basic", "auto"] as const) {
      const started = Date.now();
      const result = await partitionDocument({ bytes, fileName: "deep.pdf", fileType: "pdf", method });
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(result.elements.some((e) => e.pageNumber === 1 && e.text.includes("Sandstone Report"))).toBe(true);
      expect(result.elements.some((e) => e.pageNumber === 2 && e.text.includes("deep"))).toBe(true);
    }
    const shot = await renderPageImage({ bytes, fileType: "pdf", pageNumber: 2, width: 300 });
    expect(shot.width).toBe(300);
  }, 90_000);

  it("reads a page that draws a form XObject nested 100,000 levels deep", async () => {
    const doc = await PDFDocument.load(await pdfDoc({ pages: 1 }));
    const depth = 100_000;
    const form = doc.context.register(
      doc.context.flateStream(`${"q ".repeat(depth)}${"Q ".repeat(depth)}`, {
        Type: "XObject",
        Subtype: "Form",
        BBox: [0, 0, 100, 100],
      }),
    );
    const page = doc.getPage(0);
    page.node.setXObject(PDFName.of("Deep"), form);
    page.node.addContentStream(doc.context.register(doc.context.flateStream("q /Deep Do Q")));
    const bytes = new Uint8Array(await doc.save());
    const started = Date.now();
    const result = await partitionDocument({ bytes, fileName: "form.pdf", fileType: "pdf", method: "basic" });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.elements.some((e) => e.text.includes("Sandstone Report"))).toBe(true);
  }, 90_000);
});
