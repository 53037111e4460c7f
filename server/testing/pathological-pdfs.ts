import { PDFDocument, PDFName } from "pdf-lib";
import { pdfDoc } from "./fixtures";

/**
 * Drawings that held pdfjs for half an hour (server/parsing/pdf/pathological.test.ts, `BENCH_ONLY=pathological`):
 * graphics states nested hundreds of thousands deep, generated in a few KB compressed.
 */

/** A 2-page text PDF whose page 2 also draws `depth` nested graphics states. */
export const deeplyNested = async (depth: number) => {
  const doc = await PDFDocument.load(await pdfDoc({ pages: 2 }));
  const page = doc.getPage(1);
  const ops = `${"q ".repeat(depth)}BT /F1 12 Tf 72 700 Td (deep) Tj ET ${"Q ".repeat(depth)}`;
  const deep = doc.context.register(doc.context.flateStream(ops));
  page.node.set(PDFName.of("Contents"), doc.context.obj([page.node.get(PDFName.of("Contents"))!, deep]));
  return new Uint8Array(await doc.save());
};

/** A 1-page text PDF that draws a form XObject of `depth` nested graphics states. */
export const nestedForm = async (depth: number) => {
  const doc = await PDFDocument.load(await pdfDoc({ pages: 1 }));
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
  return new Uint8Array(await doc.save());
};
