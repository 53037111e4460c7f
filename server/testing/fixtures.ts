import { PDFDocument, StandardFonts } from "pdf-lib";

/** Documents generated in code, so the core suites need nothing from outside the repository. */

export const markdownDoc = (topic = "Granite quarries") =>
  `# ${topic}\n\nQuarrying granite starts with a survey of the rock face and its natural joints.\n\n` +
  `## Cutting\n\nWire saws with diamond beads cut the blocks; water cools the wire and carries the dust away.\n\n` +
  `- Survey the face\n- Drill the holes\n- Split the block\n\n` +
  `| Step | Tool |\n|---|---|\n| Cut | Wire saw |\n| Split | Feathers and wedges |\n`;

export const textDoc = (paragraphs: number, seed = "limestone") =>
  Array.from(
    { length: paragraphs },
    (_, i) =>
      `Paragraph ${i + 1} about ${seed}. The ${seed} beds were deposited in shallow seas, and section ${i + 1} ` +
      `records the fossils, the bedding planes and the joints a quarry worker reads before cutting.`,
  ).join("\n\n");

/** A text PDF: a large title on page 1, body paragraphs, a running footer with the page number. */
export const pdfDoc = async ({ pages = 2, title = "Sandstone Report" } = {}) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    let y = 720;
    if (p === 1) {
      page.drawText(title, { x: 72, y, size: 24, font: bold });
      y -= 48;
    }
    for (let i = 0; i < 3; i++) {
      const words = `Page ${p} paragraph ${i + 1}: sandstone porosity and cementation decide how the stone weathers.`;
      page.drawText(words, { x: 72, y, size: 11, font });
      page.drawText("Quarry operators test each block for strength before it leaves the site.", {
        x: 72,
        y: y - 14,
        size: 11,
        font,
      });
      y -= 48;
    }
    page.drawText(`${p}`, { x: 300, y: 30, size: 9, font });
  }
  return Buffer.from(await doc.save());
};
