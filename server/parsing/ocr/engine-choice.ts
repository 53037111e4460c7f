import { fixLineGroups } from "./digit-context";
import { unionBox, type OcrLine, type OcrPage, type OcrWord } from "./types";

/**
 * Which OCR engine reads a page. Tesseract reads first: the structure code (list bullets, table cells, second
 * readings) is tuned on its output. A page it reads badly (little sure text) is read by PP-OCRv4 too (ppocr.ts) and
 * the surer reading kept. `QUARRY_OCR_ENGINE=auto` turns that rule on; `ppocr` or `both` (always read with both, keep
 * the surer) are the other choices. Unset, Tesseract alone reads: `auto` measures a little better (bench `scans`, 8
 * pages, with the repairs: digit F1 0.965 against 0.960, word F1 0.959 against 0.957) for half as much CPU again
 * (8.4 against 5.4 s a page), and the OCR methods' pages/s are kept. Either way digit look-alikes and numbers split
 * by OCR are then repaired (digits.ts, digit-context.ts).
 */

export type EngineName = "tesseract" | "ppocr";
export type EnginePolicy = "auto" | "both" | EngineName;

/** A word is sure above this confidence; the engines' scales differ (PP-OCR's is a mean probability). */
const SURE: Record<EngineName, number> = { tesseract: 80, ppocr: 90 };
/** Tesseract's reading is kept without a second one when this share of its characters is sure. */
const GOOD_ENOUGH = 0.9;
/**
 * PP-OCR's reading replaces Tesseract's only when it holds at least this share of Tesseract's letters and digits:
 * sure text says how well the words found were read, not what was missed. On a ruled table page (the scans bench's
 * lattice page) PP-OCR's detector skipped cells: 8 % fewer letters and digits, 298 number tokens for 346, all of
 * them read surely. Elsewhere the two engines' counts are within half a percent.
 */
const MIN_COVERAGE = 0.97;

export const enginePolicy = (value = process.env.QUARRY_OCR_ENGINE): EnginePolicy =>
  value === "auto" || value === "ppocr" || value === "both" ? value : "tesseract";

/** Share of characters in sure words, comparable across engines (0 for a page without text). */
export const sureShare = (page: OcrPage, engine: EngineName): number => {
  let sure = 0;
  let all = 0;
  for (const w of allWords(page)) {
    all += w.text.length;
    if (w.confidence >= SURE[engine]) sure += w.text.length;
  }
  return all === 0 ? 0 : sure / all;
};

/** Letters and digits read on a page. */
const readCharacters = (page: OcrPage): number => page.text.replace(/[^\p{L}\p{N}]/gu, "").length;

/** PP-OCR's reading is better: surer, and missing nothing Tesseract read. */
const ppocrBetter = (pp: OcrPage, tess: OcrPage, tessShare: number): boolean =>
  sureShare(pp, "ppocr") > tessShare && readCharacters(pp) >= MIN_COVERAGE * readCharacters(tess);

const allWords = (page: OcrPage): OcrWord[] =>
  page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));

/** A line's words with look-alikes repaired; words of one number split by OCR become one word (boxes joined). */
const repairLine = (line: OcrLine): OcrWord[] =>
  fixLineGroups(line.words.map((w) => w.text)).map(({ from, to, text }) => {
    const parts = line.words.slice(from, to + 1);
    const first = parts[0] as OcrWord;
    if (parts.length === 1) return { ...first, text };
    return { ...unionBox(parts), text, confidence: Math.min(...parts.map((w) => w.confidence)) };
  });

/** Digit look-alikes repaired line by line, texts rebuilt (in place; returns the page). */
export const repairDigits = (page: OcrPage): OcrPage => {
  for (const b of page.blocks) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        l.words = repairLine(l);
        l.text = l.words.map((w) => w.text).join(" ");
      }
      p.text = p.lines.map((l) => l.text).join("\n");
    }
    b.text = b.paragraphs.map((p) => p.text).join("\n\n");
  }
  page.text = page.blocks.map((b) => b.text).join("\n\n");
  return page;
};

export type ReadWith = Record<EngineName, () => Promise<OcrPage>>;
export type ChosenPage = { page: OcrPage; engine: EngineName };

/** Reads a page with the engine(s) the policy asks for and keeps the better reading. */
export const readChosen = async (read: ReadWith, policy: EnginePolicy = enginePolicy()): Promise<ChosenPage> => {
  if (policy === "tesseract" || policy === "ppocr") return { page: repairDigits(await read[policy]()), engine: policy };
  const tess = await read.tesseract();
  const tessShare = sureShare(tess, "tesseract");
  if (policy === "auto" && tessShare >= GOOD_ENOUGH) return { page: repairDigits(tess), engine: "tesseract" };
  const pp = await read.ppocr().catch((error: unknown) => {
    // A server without the models still reads scans, with Tesseract.
    if (policy === "both") throw error;
    return null;
  });
  const better: ChosenPage =
    pp && ppocrBetter(pp, tess, tessShare) ? { page: pp, engine: "ppocr" } : { page: tess, engine: "tesseract" };
  return { page: repairDigits(better.page), engine: better.engine };
};
