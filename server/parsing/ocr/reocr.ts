import sharp from "sharp";
import { recognize, type OcrLayout } from "./engine";
import type { RecoveredTable } from "./table-structure";
import { boxHeight, meanConfidence, type OcrLine, type OcrPage, type OcrWord, type PixelBox } from "./types";

/**
 * Second reading of the lines Tesseract was unsure of: each is cut out of a sharper image (the page rendered at a
 * higher resolution, or the image enlarged) and read again as a single line. The new reading replaces the old one
 * only when Tesseract is more confident of it.
 */

export const REOCR_BELOW = 70;
const MAX_LINES = 80;

export type SharperSource = {
  /** Greyscale pixels, one byte each. */
  gray: Buffer;
  width: number;
  height: number;
  /** Source pixels per page-image pixel (400 dpi render of a 300 dpi page: 4/3; an image: 1). */
  factor: number;
};

/** A page image (PNG) as the greyscale source that line crops are cut from. */
export const sharperSource = async (png: Buffer, factor: number): Promise<SharperSource> => {
  const { data, info } = await sharp(png, { limitInputPixels: false })
    .flatten({ background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { gray: data, width: info.width, height: info.height, factor };
};

const wanted = (line: OcrLine) => line.confidence < REOCR_BELOW && /[\p{L}\p{N}]/u.test(line.text);

export const countUnsureLines = (page: OcrPage): number =>
  page.blocks.reduce((n, b) => n + b.paragraphs.reduce((m, p) => m + p.lines.filter(wanted).length, 0), 0);

/**
 * Re-reads up to 80 unsure lines of `page` (in place), most unsure first, until `deadline` (epoch ms). The crop is
 * enlarged `upscale` times after cutting. Returns how many lines were read again and how many improved.
 */
export const reocrUnsureLines = async ({
  page,
  source,
  upscale,
  deadline,
  dpi,
}: {
  page: OcrPage;
  source: SharperSource;
  upscale: number;
  deadline: number;
  /** Resolution of the enlarged crop, when known. */
  dpi?: number;
}): Promise<{ tried: number; improved: number }> => {
  const lines = page.blocks
    .flatMap((b) => b.paragraphs.flatMap((p) => p.lines))
    .filter(wanted)
    .sort((a, b) => a.confidence - b.confidence)
    .slice(0, MAX_LINES);
  let tried = 0;
  let improved = 0;
  for (const line of lines) {
    if (Date.now() > deadline) break;
    const pad = Math.max(2, Math.round(boxHeight(line) * 0.35));
    const read = await readAgain(source, line, { pad, upscale, layout: "line", dpi });
    if (!read) continue;
    tried++;
    if (read.words.length === 0 || read.confidence <= line.confidence + 3) continue;
    line.words = read.words;
    line.text = read.words.map((w) => w.text).join(" ");
    line.confidence = read.confidence;
    improved++;
  }
  return { tried, improved };
};

/**
 * Cuts `box` (page-image pixels, grown by `pad`, or shrunk when `pad` is negative) out of the sharper source,
 * enlarges it and reads it; words come back in page-image pixels. Null when the crop is empty or unreadable.
 */
export const readAgain = async (
  source: SharperSource,
  box: PixelBox,
  { pad, upscale, layout, dpi }: { pad: number; upscale: number; layout: OcrLayout; dpi?: number },
): Promise<{ words: OcrWord[]; confidence: number } | null> => {
  const k = source.factor;
  const left = Math.max(0, Math.floor((box.left - pad) * k));
  const top = Math.max(0, Math.floor((box.top - pad) * k));
  const right = Math.min(source.width, Math.ceil((box.right + pad) * k));
  const bottom = Math.min(source.height, Math.ceil((box.bottom + pad) * k));
  if (right - left < 4 || bottom - top < 4) return null;
  const width = Math.round((right - left) * upscale);
  const height = Math.round((bottom - top) * upscale);
  const crop = await sharp(source.gray, { raw: { width: source.width, height: source.height, channels: 1 } })
    .extract({ left, top, width: right - left, height: bottom - top })
    .resize(width, height, { kernel: "lanczos3" })
    .png()
    .toBuffer();
  let result: OcrPage;
  try {
    // Tesseract guesses the resolution of a small crop badly; any plausible value beats the guess.
    result = await recognize(crop, { width, height }, { layout, dpi: dpi ?? 300, timeoutMs: 30_000 });
  } catch {
    // What cannot be read again keeps its first reading.
    return null;
  }
  const scale = k * upscale;
  const words: OcrWord[] = result.blocks
    .flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)))
    .map((w) => ({
      ...w,
      left: left / k + w.left / scale,
      right: left / k + w.right / scale,
      top: top / k + w.top / scale,
      bottom: top / k + w.bottom / scale,
    }));
  return { words, confidence: meanConfidence(words) };
};

/** Cells of ruled tables read with less than this confidence are read again on their own. */
const CELL_REOCR_BELOW = 85;
const MAX_CELLS = 150;

/**
 * Reads unsure table cells again, each cut out on its own from the sharper source (ruled cells inside their lines,
 * so the rules are not read as letters). Empty ruled cells are tried too: OCR may have missed their text.
 */
export const reocrTableCells = async ({
  tables,
  source,
  upscale,
  deadline,
  dpi,
}: {
  tables: RecoveredTable[];
  source: SharperSource;
  upscale: number;
  deadline: number;
  dpi?: number;
}): Promise<{ tried: number; improved: number }> => {
  let tried = 0;
  let improved = 0;
  const cells = tables
    .flatMap((t) => t.cells.map((cell) => ({ cell, ruled: t.source === "grid" })))
    .filter(({ cell, ruled }) => (ruled || cell.confidence !== null) && (cell.confidence ?? 0) < CELL_REOCR_BELOW)
    .slice(0, MAX_CELLS);
  for (const { cell, ruled } of cells) {
    if (Date.now() > deadline) break;
    const short = Math.min(cell.box.right - cell.box.left, cell.box.bottom - cell.box.top);
    // Ruled cells are cut inside their lines; other cells are the box of their words, with a margin.
    const pad = ruled ? -Math.max(3, Math.round(short * 0.04)) : Math.max(2, Math.round(short * 0.25));
    const read = await readAgain(source, cell.box, { pad, upscale, layout: "block", dpi });
    if (!read) continue;
    tried++;
    const text = read.words
      .map((w) => w.text)
      .join(" ")
      .replace(/^[|¦\s]+|[\s|¦]+$/g, "")
      .trim();
    if (!text || !/[\p{L}\p{N}]/u.test(text)) continue;
    if (cell.confidence !== null && read.confidence <= cell.confidence + 3) continue;
    if (cell.confidence === null && read.confidence < 60) continue;
    cell.text = text;
    cell.confidence = read.confidence;
    improved++;
  }
  return { tried, improved };
};
