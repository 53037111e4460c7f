import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";

/**
 * A two-page PDF whose first page takes the PDF engine seconds to read while its file stays small: hundreds of
 * thousands of separate text objects (a compressed stream of a few hundred KB). The second page is ordinary text.
 */
export const stallingPdf = async (objects = 400_000) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([612, 792]);
  doc.addPage([612, 792]).drawText("Granite survives the winter", { x: 72, y: 700, size: 12, font });
  first.node.setFontDictionary(PDFName.of("F1"), font.ref);
  const ops: string[] = [];
  for (let i = 0; i < objects; i++) ops.push(`BT /F1 4 Tf ${(i * 7) % 600} ${(i * 13) % 780} Td (ab) Tj ET`);
  first.node.set(PDFName.of("Contents"), doc.context.register(doc.context.flateStream(ops.join("\n"))));
  return Buffer.from(await doc.save());
};
