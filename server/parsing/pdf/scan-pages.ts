import type { GraphicsReader, PageGraphics } from "./figures";
import type { TextLayerVerdict } from "./soundness";

/**
 * Which pages of a text-layer parse must be read from their pixels: no text or garbled text (soundness.ts), or
 * little text on a page-sized picture (a scan with a stamp or a page number on it). Decided inside the parse, on
 * its open document and with its cache of page drawings (figures read the same drawings), so auto and the
 * text-first methods pay nothing over fast on text pages, and only a page with little text has its drawing looked
 * at.
 */

const SCAN_IMAGE_COVERAGE = 0.7;
const SCAN_MAX_TEXT_CHARS = 100;

/** Share of the page the largest painted picture covers. */
export const imageCoverage = (graphics: PageGraphics): number => {
  const pageArea = graphics.width * graphics.height;
  let coverage = 0;
  for (const { box } of graphics.images) {
    const w = Math.min(box.right, graphics.width) - Math.max(box.left, 0);
    const h = Math.min(box.bottom, graphics.height) - Math.max(box.top, 0);
    if (w > 0 && h > 0) coverage = Math.max(coverage, (w * h) / pageArea);
  }
  return coverage;
};

export const pagesNeedingOcr = async (
  verdicts: ReadonlyMap<number, TextLayerVerdict>,
  graphicsOf: GraphicsReader,
): Promise<number[]> => {
  const needing: number[] = [];
  for (const [n, verdict] of verdicts) {
    if (!verdict.sound) needing.push(n);
    else if (verdict.chars < SCAN_MAX_TEXT_CHARS) {
      // A drawing that cannot be read is no reason to OCR a page that has text.
      const coverage = await graphicsOf(n).then(imageCoverage, () => 0);
      if (coverage >= SCAN_IMAGE_COVERAGE) needing.push(n);
    }
  }
  return needing.sort((a, b) => a - b);
};
