import { isMonospaceFont } from "../../monospace";
import type { PageText } from "../types";
import type { PdfDocument, PdfPage } from "./document";
import { toRuns, type PageChar } from "./runs";

/**
 * The characters of one page as PDFium reads them: in the order the page draws them, each with its box on the page
 * as displayed (top-left origin, rotation applied), its font and what separates it from the one before. Spaces are
 * PDFium's: the space characters of the file and the ones it infers from the gaps between words (many PDFs draw
 * no spaces at all).
 */

/** Flags of a font descriptor (PDF 32000 §9.8.2): fixed pitch. */
const FIXED_PITCH = 1;
/** What names a bold face: the weights the layout code reads from a font's name. */
const BOLD_NAME = /bold|black|heavy|semibold|demi/i;
/** A horizontal line's box, in font sizes above and below the baseline. */
const ASCENT = 0.75;
const DESCENT = 0.25;
/** PDFium's code for a hyphen that ends a line (the word goes on on the next one): drawn as "-". */
const LINE_END_HYPHEN = 0x02;

type Font = { name: string; mono: boolean };
type Style = Font & { fontSize: number; horizontal: boolean };

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
  const mono = (pdfium.api.FPDFFont_GetFlags(font) & FIXED_PITCH) !== 0 || isMonospaceFont(name);
  // A bold face whose name does not say so (Linux Libertine's "LinLibertineTB"): its descriptor's weight does.
  if (pdfium.api.FPDFFont_GetWeight(font) >= 600 && !BOLD_NAME.test(name)) return { name: `${name}-Bold`, mono };
  return { name, mono };
};

const readChars = (doc: PdfDocument, page: PdfPage): PageChar[] => {
  const { api, heap } = doc.pdfium;
  const { scratch } = doc;
  const BOX = scratch; // FS_RECTF: left, top, right, bottom
  const MATRIX = scratch + 16; // FS_MATRIX: a, b, c, d, e, f
  const ORIGIN = scratch + 48; // two doubles
  const textPage = page.textPage();
  const count = textPage ? api.FPDFText_CountChars(textPage) : 0;
  const [da, db, dc, dd, de, df] = page.toDisplay;
  /**
   * Font, size and writing direction belong to a text object (one text-showing operator), read at its first
   * character: its matrix and font size hold for all of them.
   */
  const styles = new Map<number, Style>();
  const readStyle = (char: number, textObject: number): Style => {
    api.FPDFText_GetMatrix(textPage, char, MATRIX);
    const { f32 } = heap();
    const m = MATRIX >> 2;
    const [ma, mb, mc, md] = [f32[m]!, f32[m + 1]!, f32[m + 2]!, f32[m + 3]!];
    const fontSize = api.FPDFText_GetFontSize(textPage, char) * Math.hypot(mc, md);
    // The writing direction on the page as displayed.
    const ax = da * ma + dc * mb;
    const ay = db * ma + dd * mb;
    const along = Math.hypot(ax, ay) || 1;
    const { name, mono } = readFont(doc, textObject);
    return { name, mono, fontSize, horizontal: ax / along > 0.98 && Math.abs(ay / along) < 0.2 };
  };
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
    let style = styles.get(textObject);
    if (!style) styles.set(textObject, (style = readStyle(i, textObject)));
    if (!(style.fontSize > 0.5)) continue;

    api.FPDFText_GetLooseCharBox(textPage, i, BOX);
    api.FPDFText_GetCharOrigin(textPage, i, ORIGIN, ORIGIN + 8);
    const { f32, f64 } = heap();
    const b = BOX >> 2;
    const o = ORIGIN >> 3;
    const [boxLeft, boxTop, boxRight, boxBottom] = [f32[b]!, f32[b + 1]!, f32[b + 2]!, f32[b + 3]!];
    const [originX, originY] = [f64[o]!, f64[o + 1]!];
    if (!Number.isFinite(originX) || !Number.isFinite(originY)) continue;
    // The box on the page as displayed. A horizontal line's box is the same height whatever its letters and fonts
    // (three quarters of the size above the baseline, a quarter below), so lines of one size stack evenly and rows
    // group by their baselines; text at an angle keeps the box PDFium gives.
    const x0 = da * boxLeft + dc * boxTop + de;
    const x1 = da * boxRight + dc * boxBottom + de;
    const y0 = db * boxLeft + dd * boxTop + df;
    const y1 = db * boxRight + dd * boxBottom + df;
    const baseline = db * originX + dd * originY + df;
    const { fontSize, horizontal } = style;
    chars.push({
      char: code === LINE_END_HYPHEN ? "-" : String.fromCodePoint(code),
      left: Math.min(x0, x1),
      right: Math.max(x0, x1),
      top: horizontal ? baseline - ASCENT * fontSize : Math.min(y0, y1),
      bottom: horizontal ? baseline + DESCENT * fontSize : Math.max(y0, y1),
      baseline,
      fontSize,
      fontName: style.name,
      mono: style.mono,
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
