import sharp from "sharp";
import type { BoundingBox, ParsedElement } from "../types";
import { recognize } from "./engine";
import { readChosen, type EngineName } from "./engine-choice";
import { recognizePp } from "./ppocr";
import { estimateLineHeight, pageInk, toGray, withoutRulings } from "./raster";
import { findRulings, rulingOptionsFor, rulingsToPaint } from "./rulings";
import { findMissedText } from "./missed";
import { rereadVerticalBlocks } from "./vertical";
import { orderByColumns } from "./reading-order";
import { countUnsureLines, readAgain, reocrTableCells, reocrUnsureLines, type SharperSource } from "./reocr";
import { keepRepeatedFurniture } from "../furniture";
import { bodyStats, buildUnits, classifyUnits, type BodyStats, type TextUnit } from "./structure";
import { findTables, tableHtml, tableText, type RecoveredTable } from "./table-structure";
import {
  boxHeight,
  meanConfidence,
  median,
  unionBox,
  type GrayImage,
  type OcrPage,
  type OcrWord,
  type PixelBox,
  type Rulings,
} from "./types";

/**
 * One page image through OCR and structure: the shared path of image files and of PDF pages read by the balanced
 * and accurate methods. Pages are analysed one at a time (the caller drops the image afterwards) and turned into
 * elements once all are read, so the body text size can be taken over the whole document.
 */

/** Tesseract reads best when a text line is 20–40 px tall; smaller text is enlarged to about this first. */
const TARGET_LINE_HEIGHT = 30;
const SMALL_LINE_HEIGHT = 20;
const MAX_ENLARGE = 3;
const MAX_ENLARGED_PIXELS = 40_000_000;
const MAX_OCR_PIXELS = 25_000_000;
/** Image elements of pages without text are kept at most this many pixels a side. */
const IMAGE_SIDE = 1600;
/** A page with less ink than this is blank, not a picture. */
const BLANK_INK = 0.002;

export type AnalyzeOptions = {
  pageNumber: number;
  png: Buffer;
  width: number;
  height: number;
  /** Resolution of a rendered PDF page; unknown for image files. */
  dpi?: number;
  /** Enlarge pages whose text is too small for Tesseract (image files; PDF pages are rendered large enough). */
  enlargeSmallText: boolean;
  /** Recover table structure (accurate). */
  tables: boolean;
  /**
   * Read unsure lines again from a sharper source (accurate). `upscale` enlarges each crop; `source` is called
   * only when a page has unsure lines.
   */
  reocr: { source: () => Promise<SharperSource>; upscale: number; dpi?: number } | null;
  /**
   * What to keep of a page on which OCR finds no text: always an image (an image file must not come back empty),
   * or only when something is printed on it (a blank PDF page is just blank).
   */
  keepEmptyPage: "always" | "inked";
  /** Re-reading stops at this time (epoch ms); the page keeps its first reading. */
  deadline: number;
  timeoutMs?: number;
};

export type AnalyzedPage = {
  pageNumber: number;
  /** Pixel size of the page image. */
  width: number;
  height: number;
  units: TextUnit[];
  tables: RecoveredTable[];
  /** Mean word confidence of the page, 0–100. */
  confidence: number;
  /** A small PNG of a page on which OCR found no text but something is printed. */
  imagePng: Buffer | null;
  blank: boolean;
  reocr?: { tried: number; improved: number };
  /** The engine whose reading was kept (engine-choice.ts). */
  engine: EngineName;
};

const scaleOcrPage = (page: OcrPage, k: number): OcrPage => {
  const s = <T extends PixelBox>(b: T): T => ({
    ...b,
    left: b.left * k,
    top: b.top * k,
    right: b.right * k,
    bottom: b.bottom * k,
  });
  return {
    ...page,
    width: Math.round(page.width * k),
    height: Math.round(page.height * k),
    blocks: page.blocks.map((b) => ({
      ...s(b),
      paragraphs: b.paragraphs.map((p) => ({
        ...s(p),
        lines: p.lines.map((l) => ({ ...s(l), rowHeight: l.rowHeight * k, words: l.words.map(s) })),
      })),
    })),
  };
};

/** Words read apart from the page become a block of their own, placed in reading order by their top edge. */
const addBlock = (page: OcrPage, words: OcrWord[]) => {
  const box = unionBox(words);
  const text = words.map((w) => w.text).join(" ");
  const confidence = meanConfidence(words);
  const line = { ...box, text, confidence, words, rowHeight: boxHeight(box) };
  const block = { ...box, text, confidence, paragraphs: [{ ...box, text, confidence, lines: [line] }] };
  const at = page.blocks.findIndex((b) => b.top > box.top);
  if (at < 0) page.blocks.push(block);
  else page.blocks.splice(at, 0, block);
};

const allWords = (page: OcrPage) =>
  page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));

/** OCR of the page image, enlarged (or reduced) by `enlarge` first, with the boxes scaled back to the page's pixels. */
const recognizeAt = async (
  input: Buffer,
  {
    width,
    height,
    enlarge,
    dpi,
    timeoutMs,
  }: { width: number; height: number; enlarge: number; dpi: number; timeoutMs?: number },
): Promise<OcrPage> => {
  if (enlarge === 1) return recognize(input, { width, height }, { dpi, timeoutMs });
  const w = Math.round(width * enlarge);
  const h = Math.round(height * enlarge);
  const big = await sharp(input, { limitInputPixels: false }).resize(w, h, { kernel: "lanczos3" }).png().toBuffer();
  const ocr = scaleOcrPage(await recognize(big, { width: w, height: h }, { dpi, timeoutMs }), 1 / enlarge);
  ocr.width = width;
  ocr.height = height;
  return ocr;
};

/** The page image as a source of crops, at its own resolution. */
const ownSource = (gray: GrayImage): SharperSource => ({
  gray: Buffer.from(gray.data.buffer, gray.data.byteOffset, gray.data.byteLength),
  width: gray.width,
  height: gray.height,
  factor: 1,
});

/** Small isolated text Tesseract dropped (a page number alone at the foot of the page) is read on its own. */
const readMissedText = async (
  ocr: OcrPage,
  {
    gray,
    rulings,
    estimated,
    baseDpi,
    deadline,
  }: { gray: GrayImage; rulings: Rulings; estimated: number; baseDpi: number; deadline: number },
) => {
  const missed = findMissedText({ gray, words: allWords(ocr), rulings, lineHeight: estimated });
  if (missed.length === 0 || Date.now() >= deadline) return;
  const own = ownSource(gray);
  const upscale = Math.min(3, Math.max(1, TARGET_LINE_HEIGHT / estimated));
  for (const patch of missed) {
    if (Date.now() > deadline) break;
    const read = await readAgain(own, patch, {
      pad: Math.round(estimated * 0.3),
      upscale,
      layout: boxHeight(patch) > estimated * 1.6 ? "block" : "line",
      dpi: Math.round(baseDpi * upscale),
    });
    const words = read?.words.filter((w) => w.confidence >= 60 && /[\p{L}\p{N}]/u.test(w.text)) ?? [];
    if (!read || words.length === 0 || read.confidence < 65) continue;
    addBlock(ocr, words);
  }
};

/** The picture kept of a page without text, at most IMAGE_SIDE on its longer side. */
const pageImage = async (png: Buffer, width: number, height: number) =>
  Math.max(width, height) <= IMAGE_SIDE
    ? png
    : await sharp(png, { limitInputPixels: false }).resize(IMAGE_SIDE, IMAGE_SIDE, { fit: "inside" }).png().toBuffer();

export const analyzePage = async (options: AnalyzeOptions): Promise<AnalyzedPage> => {
  const { png, width, height } = options;
  const gray = await toGray(png);

  // Small text (low-resolution scans, screenshots) is enlarged before reading, and the boxes scaled back. Huge
  // images are reduced instead: past 25 megapixels (A4 at 600 dpi) text is large enough, and OCR time and the
  // WebAssembly heap grow with the pixels.
  const measured = estimateLineHeight(gray);
  const estimated = measured ?? 20;
  let enlarge = 1;
  if (width * height > MAX_OCR_PIXELS) {
    enlarge = Math.sqrt(MAX_OCR_PIXELS / (width * height));
  } else if (options.enlargeSmallText && measured !== null && measured < SMALL_LINE_HEIGHT) {
    enlarge = Math.min(MAX_ENLARGE, TARGET_LINE_HEIGHT / measured, Math.sqrt(MAX_ENLARGED_PIXELS / (width * height)));
    if (enlarge < 1.2) enlarge = 1;
  }
  const rulings = findRulings(gray, rulingOptionsFor(gray, estimated));
  const painted = rulingsToPaint(rulings, estimated);
  const hasRulings = painted.horizontal.length + painted.vertical.length > 0;
  const input = hasRulings ? await withoutRulings(gray, painted) : png;
  // Tesseract reads the resolution from the file or guesses it, often wrongly for screenshots; body text is
  // about 13 pt from line to line, which gives a usable figure when the resolution is not known.
  const baseDpi = options.dpi ?? (estimated * 72) / 13;
  const dpi = Math.min(1200, Math.max(70, Math.round(baseDpi * enlarge)));
  // PP-OCR scales every detected line to its own input height, so it reads the page as it is.
  const { page: ocr, engine } = await readChosen({
    ppocr: () => recognizePp(input, { width, height }),
    tesseract: () => recognizeAt(input, { width, height, enlarge, dpi, timeoutMs: options.timeoutMs }),
  });
  // A margin column of line numbers that Tesseract read as vertical text is read again, line by line.
  if (engine === "tesseract" && ocr.blocks.some((b) => b.vertical)) {
    const upscale = Math.min(MAX_ENLARGE, Math.max(1, TARGET_LINE_HEIGHT / estimated));
    await rereadVerticalBlocks(ocr, ownSource(gray), {
      pad: Math.round(estimated * 0.5),
      upscale,
      dpi: Math.round(baseDpi * upscale),
      deadline: options.deadline,
    });
  }
  await readMissedText(ocr, { gray, rulings, estimated, baseDpi, deadline: options.deadline });
  // PP-OCR's lines come in column order already (columns.ts); Tesseract's blocks are put in the same order.
  if (engine === "tesseract") orderByColumns(ocr);

  // The sharper source (a 400 dpi render, say) is made once, and only for a page that needs a second reading.
  let sharper: Promise<SharperSource> | null = null;
  const source = () => (sharper ??= (options.reocr as NonNullable<AnalyzeOptions["reocr"]>).source());
  const upscale = (options.reocr?.upscale ?? 1) * enlarge;
  let reocr: AnalyzedPage["reocr"];
  if (options.reocr && Date.now() < options.deadline && countUnsureLines(ocr) > 0) {
    reocr = await reocrUnsureLines({
      page: ocr,
      source: await source(),
      upscale,
      deadline: options.deadline,
      dpi: options.reocr.dpi,
    });
  }

  const words = allWords(ocr);
  const lineHeight =
    median(ocr.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.map(boxHeight)))) ||
    estimateLineHeight(gray) ||
    20;
  const tables = options.tables && words.length > 0 ? findTables({ gray, words, lineHeight }) : [];
  if (options.reocr && tables.length > 0 && Date.now() < options.deadline) {
    const cells = await reocrTableCells({
      tables,
      source: await source(),
      upscale,
      deadline: options.deadline,
      dpi: options.reocr.dpi,
    });
    reocr = { tried: (reocr?.tried ?? 0) + cells.tried, improved: (reocr?.improved ?? 0) + cells.improved };
  }
  const exclude = new Set(tables.flatMap((t) => [...t.words]));
  const units = buildUnits(ocr, { exclude, gray });

  const ink = pageInk(gray);
  const empty = units.length === 0 && tables.length === 0;
  const keepImage = empty && (options.keepEmptyPage === "always" || ink >= BLANK_INK);
  const imagePng = keepImage ? await pageImage(png, width, height) : null;
  return {
    pageNumber: options.pageNumber,
    width,
    height,
    units,
    tables,
    confidence: meanConfidence(words),
    imagePng,
    blank: empty && ink < BLANK_INK,
    reocr,
    engine,
  };
};

const round = (n: number) => Math.round(n * 100) / 100;

const toBox = (b: PixelBox, scale: number): BoundingBox => ({
  left: round(b.left / scale),
  top: round(b.top / scale),
  width: round((b.right - b.left) / scale),
  height: round((b.bottom - b.top) / scale),
});

const overlapsX = (a: PixelBox, b: PixelBox) => Math.min(a.right, b.right) > Math.max(a.left, b.left);

/**
 * Elements of analysed pages in reading order. `scale` is image pixels per output unit (1 for images, the render
 * scale for PDF pages so boxes are in points). `stats` is the document's body text (PDF) or null to take each
 * page's own (images whose frames differ in resolution).
 */
export const pagesToElements = (
  pages: readonly AnalyzedPage[],
  {
    scale,
    layout,
    method,
    stats,
  }: {
    scale: (page: AnalyzedPage) => number;
    /** The page size in output units when it is known exactly (PDF points); else pixels over `scale`. */
    layout?: (page: AnalyzedPage) => { width: number; height: number };
    method: string;
    stats: BodyStats | null;
  },
): ParsedElement[] => {
  const elements: ParsedElement[] = [];
  const byPage = new Map(pages.map((page) => [page, classifyUnits(page.units, page, stats ?? bodyStats(page.units))]));
  keepRepeatedFurniture([...byPage.values()]);
  for (const page of pages) {
    const k = scale(page);
    const size = layout?.(page) ?? { width: page.width / k, height: page.height / k };
    const pageLayout = { width: round(size.width), height: round(size.height) };
    const classified = byPage.get(page) ?? [];
    type Item = { box: PixelBox; element: ParsedElement };
    const items: Item[] = classified.map(({ unit, type, text }) => ({
      box: unit,
      element: {
        type,
        text,
        pageNumber: page.pageNumber,
        boundingBox: toBox(unit, k),
        pageLayout,
        metadata: { ocr_confidence: round(unit.confidence / 100), method, ocr_engine: page.engine },
      },
    }));
    for (const table of page.tables) {
      const words = [...table.words];
      const element: ParsedElement = {
        type: "Table",
        text: tableText(table),
        html: tableHtml(table),
        pageNumber: page.pageNumber,
        boundingBox: toBox(table, k),
        pageLayout,
        metadata: {
          ocr_confidence: round(meanConfidence(words) / 100),
          method,
          ocr_engine: page.engine,
          table_rows: table.rowCount,
          table_columns: table.colCount,
          table_source: table.source,
        },
      };
      // Before the first text below the table's top edge in its column; otherwise after everything.
      const at = items.findIndex((it) => it.box.top >= table.top - 2 && overlapsX(it.box, table));
      if (at < 0) items.push({ box: table, element });
      else items.splice(at, 0, { box: table, element });
    }
    if (items.length === 0 && page.imagePng) {
      elements.push({
        type: "Image",
        text: "",
        pageNumber: page.pageNumber,
        boundingBox: toBox({ left: 0, top: 0, right: page.width, bottom: page.height }, k),
        pageLayout,
        imgBase64: page.imagePng.toString("base64"),
        metadata: { method, ocr_confidence: 0 },
      });
    }
    for (const it of items) elements.push(it.element);
  }
  return elements;
};
