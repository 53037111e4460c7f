import { orderLines } from "./columns";
import { unionBox, type OcrBlock, type OcrLine, type OcrPage, type OcrParagraph } from "./types";

/**
 * Tesseract's reading order re-made from its lines by columns.ts, as PP-OCR's already is. Tesseract finds columns
 * itself but reads an author block whose columns line up with the text columns below it as part of them (the
 * left authors, the left column, then the right authors), and a block of several author columns in whatever order
 * its blocks come. Tesseract's paragraphs are kept: a column run's lines that came from one paragraph stay one.
 */

const paragraphOf = (lines: OcrLine[], source: OcrParagraph): OcrParagraph => ({
  ...unionBox(lines),
  text: lines.map((l) => l.text).join("\n"),
  confidence: source.confidence,
  lines,
});

/** One block per column run of `orderLines`, cut into paragraphs where the source paragraph changes. */
const blockOf = (lines: OcrLine[], sourceOf: Map<OcrLine, OcrParagraph>): OcrBlock => {
  const paragraphs: OcrParagraph[] = [];
  let run: OcrLine[] = [];
  let source: OcrParagraph | undefined;
  for (const line of lines) {
    const from = sourceOf.get(line);
    if (run.length > 0 && from !== source && source) {
      paragraphs.push(paragraphOf(run, source));
      run = [];
    }
    source = from;
    run.push(line);
  }
  if (run.length > 0 && source) paragraphs.push(paragraphOf(run, source));
  const confidence = paragraphs.reduce((a, p) => a + p.confidence, 0) / Math.max(1, paragraphs.length);
  return {
    ...unionBox(lines),
    text: paragraphs.map((p) => p.text).join("\n\n"),
    confidence,
    paragraphs,
  };
};

/** The page's blocks in column reading order (in place). */
export const orderByColumns = (page: OcrPage): void => {
  const sourceOf = new Map<OcrLine, OcrParagraph>();
  for (const block of page.blocks) {
    for (const paragraph of block.paragraphs) for (const line of paragraph.lines) sourceOf.set(line, paragraph);
  }
  if (sourceOf.size === 0) return;
  page.blocks = orderLines([...sourceOf.keys()]).map((group) => blockOf(group, sourceOf));
  page.text = page.blocks.map((b) => b.text).join("\n\n");
};
