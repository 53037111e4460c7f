import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";

/**
 * A two-page PDF whose first page takes pdfjs many seconds to read (while `pdftotext` reads it at once): thousands
 * of save/restore blocks each nested 490 levels deep, under the nesting bound of pdf/nesting.ts but quadratic in
 * pdfjs all the same. The second page is ordinary text.
 */
export const stallingPdf = async (blocks = 1500) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([612, 792]);
  doc.addPage([612, 792]).drawText("Granite survives the winter", { x: 72, y: 700, size: 12, font });
  const block = "q ".repeat(490) + "Q ".repeat(490);
  first.node.set(PDFName.of("Contents"), doc.context.register(doc.context.flateStream(block.repeat(blocks))));
  return Buffer.from(await doc.save());
};
