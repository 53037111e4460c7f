import { readAgain, type SharperSource } from "./reocr";
import { boxHeight, meanConfidence, unionBox, type OcrBlock, type OcrLine, type OcrPage, type OcrWord } from "./types";

/**
 * Blocks Tesseract's layout analysis took for vertical text, read again as horizontal lines. A narrow column of
 * short lines down a page's margin (the line numbers of a transcript, of pleading paper or of a code listing) looks
 * to it like one tall line of stacked characters, which it reads turned on its side: "1 2 3" comes out as "N WwW".
 * The block is cut out and read as a block of horizontal lines; that reading replaces the first when Tesseract is
 * surer of it, so text that really runs up the margin (a rotated stamp) keeps its vertical reading.
 */

/** The horizontal reading must be this much surer (mean word confidence, 0–100) to replace the vertical one. */
const SURER_BY = 15;

/** Words grouped into lines: a word joins the line whose vertical extent it overlaps by half its height. */
const linesOf = (words: readonly OcrWord[]): OcrLine[] => {
  const rows: OcrWord[][] = [];
  for (const word of [...words].sort((a, b) => a.top - b.top)) {
    const row = rows.find((r) => {
      const box = unionBox(r);
      return Math.min(box.bottom, word.bottom) - Math.max(box.top, word.top) > boxHeight(word) / 2;
    });
    if (row) row.push(word);
    else rows.push([word]);
  }
  return rows.map((row) => {
    const sorted = row.sort((a, b) => a.left - b.left);
    const box = unionBox(sorted);
    const text = sorted.map((w) => w.text).join(" ");
    return { ...box, text, confidence: meanConfidence(sorted), words: sorted, rowHeight: boxHeight(box) };
  });
};

const asBlock = (lines: OcrLine[]): OcrBlock => {
  const box = unionBox(lines);
  const text = lines.map((l) => l.text).join("\n");
  const words = lines.flatMap((l) => l.words);
  const confidence = meanConfidence(words);
  return { ...box, text, confidence, paragraphs: [{ ...box, text, confidence, lines }] };
};

/**
 * Re-reads the page's vertical-text blocks from `source` (in place). `pad` grows each crop (page-image pixels);
 * `dpi` is the crop's resolution after `upscale`. Returns how many blocks were replaced.
 */
export const rereadVerticalBlocks = async (
  page: OcrPage,
  source: SharperSource,
  { pad, upscale, dpi, deadline }: { pad: number; upscale: number; dpi: number; deadline: number },
): Promise<number> => {
  let replaced = 0;
  for (const [i, block] of page.blocks.entries()) {
    if (!block.vertical || Date.now() > deadline) continue;
    const first = meanConfidence(block.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
    const read = await readAgain(source, block, { pad, upscale, layout: "block", dpi });
    const words = read?.words.filter((w) => /[\p{L}\p{N}]/u.test(w.text)) ?? [];
    if (!read || words.length === 0 || meanConfidence(words) < first + SURER_BY) continue;
    page.blocks[i] = asBlock(linesOf(words));
    replaced++;
  }
  if (replaced > 0) page.text = page.blocks.map((b) => b.text).join("\n\n");
  return replaced;
};
