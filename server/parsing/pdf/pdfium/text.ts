import type { PageText } from "../types";
import { applyMatrix, type PdfDocument, type PdfPage } from "./document";
import { toRuns, type PageChar } from "./runs";

/**
 * The characters of one page as PDFium reads them: in the order the page draws them, each with its box on the page
 * as displayed (top-left origin, rotation applied), its font and what separates it from the one before. Spaces are
 * PDFium's: the space characters of the file and the ones it infers from the gaps between words (many PDFs draw
 * no spaces at all).
 */

/** Flags of a font descriptor (PDF 32000 §9.8.2): fixed pitch. */
const FIXED_PITCH = 1;
const MONOSPACE_NAME = /courier|mono|consol|menlo|typewriter|nimbusmon|cmtt|fixedsys/i;
/** A horizontal line's box, in font sizes above and below the baseline. */
const ASCENT = 0.75;
const DESCENT = 0.25;
/** PDFium's code for a hyphen that ends a line (the word goes on on the next one): drawn as "-". */
const LINE_END_HYPHEN = 0x02;

type Font = { name: string; mono: boolean };

const isSpace = (code: number) =>
  code === 0x20 || code === 0x09 || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
const isLineBreak = (code: number) => code === 0x0a || code === 0x0d;

const readFont = (doc: PdfDocument, textObject: number): Font => {
  const { pdfium, scratch } = doc;
  const font = textObject ? pdfium.api.FPDFTextObj_GetFont(textObject) : 0;
  if (!font) return { name: "", mono: false };
  const nameBuffer = scratch + 64;
  const length = pdfium.api.FPDFFont_GetBaseFontName(font, nameBuffer, 192);
  // A subset's name carries a tag of six capitals ("BCDEEE+Calibri"): the same font in every subset.
  const name = length > 1 ? pdfium.utf8(nameBuffer).replace(/^[A-Z]{6}\+/, "") : `font-${font}`;
  const mono = (pdfium.api.FPDFFont_GetFlags(font) & FIXED_PITCH) !== 0 || MONOSPACE_NAME.test(name);
  return { name, mono };
};

export const readChars = (doc: PdfDocument, page: PdfPage): PageChar[] => {
  const { api, heap } = doc.pdfium;
  const { scratch } = doc;
  const BOX = scratch; // FS_RECTF: left, top, right, bottom
  const MATRIX = scratch + 16; // FS_MATRIX: a, b, c, d, e, f
  const ORIGIN = scratch + 48; // two doubles
  const textPage = page.textPage();
  const count = textPage ? api.FPDFText_CountChars(textPage) : 0;
  const fonts = new Map<number, Font>();
  const [da, db, dc, dd] = page.toDisplay;
  const chars: PageChar[] = [];
  let before: PageChar["before"] = "none";

  for (let i = 0; i < count; i++) {
    const code = api.FPDFText_GetUnicode(textPage, i);
    const inferred = api.FPDFText_IsGenerated(textPage, i) !== 0;
    // PDFium infers line breaks where the baseline moves, superscripts included: those count as inferred spaces.
    if (isLineBreak(code) && !inferred) {
      before = "line-break";
      continue;
    }
    if (isSpace(code) || isLineBreak(code) || inferred) {
      if (before === "none" || before === "inferred-space") before = inferred ? "inferred-space" : "space";
      continue;
    }
    if (code < 0x20 && code !== LINE_END_HYPHEN) continue;
    const textObject = api.FPDFText_GetTextObject(textPage, i);
    let font = fonts.get(textObject);
    if (!font) fonts.set(textObject, (font = readFont(doc, textObject)));

    api.FPDFText_GetLooseCharBox(textPage, i, BOX);
    api.FPDFText_GetMatrix(textPage, i, MATRIX);
    api.FPDFText_GetCharOrigin(textPage, i, ORIGIN, ORIGIN + 8);
    const { f32, f64 } = heap();
    const b = BOX >> 2;
    const m = MATRIX >> 2;
    const o = ORIGIN >> 3;
    const fontSize = api.FPDFText_GetFontSize(textPage, i) * Math.hypot(f32[m + 2]!, f32[m + 3]!);
    if (!(fontSize > 0.5) || !Number.isFinite(f64[o]!) || !Number.isFinite(f64[o + 1]!)) continue;

    // The writing direction and the box on the page as displayed. A horizontal line's box is the same height
    // whatever its letters and fonts (three quarters of the size above the baseline, a quarter below), so lines of
    // one size stack evenly and rows group by their baselines; text at an angle keeps the box PDFium gives.
    const ax = da * f32[m]! + dc * f32[m + 1]!;
    const ay = db * f32[m]! + dd * f32[m + 1]!;
    const along = Math.hypot(ax, ay) || 1;
    const horizontal = ax / along > 0.98 && Math.abs(ay / along) < 0.2;
    const [x0, y0] = applyMatrix(page.toDisplay, f32[b]!, f32[b + 1]!);
    const [x1, y1] = applyMatrix(page.toDisplay, f32[b + 2]!, f32[b + 3]!);
    const [, baseline] = applyMatrix(page.toDisplay, f64[o]!, f64[o + 1]!);
    chars.push({
      char: code === LINE_END_HYPHEN ? "-" : String.fromCodePoint(code),
      left: Math.min(x0, x1),
      right: Math.max(x0, x1),
      top: horizontal ? baseline - ASCENT * fontSize : Math.min(y0, y1),
      bottom: horizontal ? baseline + DESCENT * fontSize : Math.max(y0, y1),
      baseline,
      fontSize,
      fontName: font.name,
      mono: font.mono,
      horizontal,
      before,
    });
    before = "none";
  }
  return chars;
};

/** The text layer of one page (1-based) as runs: `runs` for horizontal text, `rotated` for text at an angle. */
export const readPageText = (doc: PdfDocument, pageNumber: number): PageText =>
  doc.withPage(pageNumber, (page) => ({
    pageNumber,
    width: page.width,
    height: page.height,
    ...toRuns(readChars(doc, page)),
  }));
