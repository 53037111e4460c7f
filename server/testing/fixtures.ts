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

/**
 * A paper-like PDF whose sentences end in literature references, `[1]` … `[40]` in every form papers write them
 * (`[2]`, `[3, 4]`, `[5–7]`, `(Box 1) [2]`), one topic per page, and the numbered reference list on the last page.
 * An answer quoting it must never turn one of these into a citation.
 */
export const referencedPdf = async () => {
  const pages = [
    "Over the past two decades there have been significant achievements in the control of a handful of important " +
      "tropical infections [1]. These achievements include reductions in the prevalence of the neglected diseases " +
      "such as lymphatic filariasis, onchocerciasis, guinea worm, leprosy and trachoma (Box 1) [2]. Albendazole " +
      "given once a year together with ivermectin interrupts the transmission of lymphatic filariasis [3, 4]. " +
      "Praziquantel treats schistosomiasis in school children at a cost below one dollar per child [5–7]. " +
      "Integrated delivery of these drugs reaches remote districts that single programmes missed [8][9].",
    "Granite blocks are split from the quarry face with feathers and wedges driven into drilled holes [10]. " +
      "Diamond wire saws cut the larger blocks while water cools the wire and carries the dust away [11, 12]. " +
      "The natural joints of the rock decide the size of the blocks a quarry can sell [13–15]. " +
      "Quarry dust is controlled with water sprays to protect the lungs of the workers [16].",
    "Corals bleach when warm water makes them expel the algae living in their tissues [17]. " +
      "A rise of one degree above the summer maximum for four weeks is enough to start bleaching [18, 19]. " +
      "Reefs recover within a decade when the water cools and fishing pressure stays low [20–23]. " +
      "Sediment from eroded farmland smothers young corals on the inner reef [24].",
    "Volcanic soils are fertile because their ash weathers quickly into clays rich in potassium and phosphorus " +
      "[25]. Andosols hold much water and organic carbon in their light, porous structure [26, 27]. " +
      "Farmers on the slopes of active volcanoes accept the risk of eruptions for the yield of their fields [28–30].",
    Array.from(
      { length: 40 },
      (_, i) => `[${i + 1}] Author ${i + 1}. Study number ${i + 1}. Journal ${2000 + i}.`,
    ).join(" "),
  ];
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const titles = ["Tropical Disease Control", "Granite Quarrying", "Coral Bleaching", "Volcanic Soils", "References"];
  pages.forEach((text, p) => {
    const page = doc.addPage([612, 792]);
    page.drawText(titles[p]!, { x: 72, y: 720, size: 18, font: bold });
    let y = 690;
    let line = "";
    const flush = () => {
      page.drawText(line, { x: 72, y, size: 11, font });
      y -= 15;
      line = "";
    };
    for (const word of text.split(" ")) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, 11) > 468) {
        flush();
        line = word;
      } else line = next;
    }
    if (line) flush();
    page.drawText(`${p + 1}`, { x: 300, y: 30, size: 9, font });
  });
  return Buffer.from(await doc.save());
};
