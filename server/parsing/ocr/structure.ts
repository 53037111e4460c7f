import {
  bulletPrefixLength,
  hasLetters,
  isAddress,
  isEmailAddress,
  isPageNumberText,
  isSentenceLike,
  wordCount,
} from "../classify-text";
import type { ElementType } from "../types";
import { strokeWidth } from "./raster";
import {
  boxHeight,
  meanConfidence,
  unionBox,
  type GrayImage,
  type OcrLine,
  type OcrPage,
  type OcrWord,
  type PixelBox,
} from "./types";

/**
 * From OCR lines to typed text units. Tesseract's paragraphs are the starting point; they are cut where a list
 * item starts, where the text size jumps (a heading run into its paragraph) and at wide vertical gaps. Each unit
 * is then typed from its size and stroke weight against the body text, its place on the page and its wording.
 */

export type TextUnit = PixelBox & {
  lines: OcrLine[];
  text: string;
  /** Median line height in pixels. */
  size: number;
  /** Mean stroke width of its words in pixels (bold text is heavier), null without a page image. */
  ink: number | null;
  /** Mean word confidence, 0–100. */
  confidence: number;
  /** Starts with a bullet or list number; `text` has it removed. */
  bullet: boolean;
};

export type BodyStats = { size: number; ink: number | null };

/** What Tesseract reads for bullet glyphs: •, ● and ▪ come back as e, o, ©, ®, «, "e®" and the like. */
const OCR_BULLET_RE = /^[•·●○◦▪■□►➢*+\-–—¢©®°«»eoO@]{1,2}$/u;

const CAPTION_RE = /^(?:figure|fig\.|table|tab\.|chart|exhibit)\s*\d{1,4}[a-z]?\s*[.:|–-]/i;
const SECTION_RE = /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.|[A-Z]\.)\s+\p{Lu}/u;
const ALNUM_RE = /[\p{L}\p{N}]/gu;

const alnumShare = (text: string) => (text.match(ALNUM_RE)?.length ?? 0) / Math.max(1, text.replace(/\s/g, "").length);

/** Stray marks read from rules, specks and pictures: low confidence and little that is a letter or digit. */
const isJunkWord = (w: OcrWord) => w.confidence < 30 && alnumShare(w.text) < 0.5;

const isJunkLine = (words: OcrWord[]) => {
  const text = words.map((w) => w.text).join(" ");
  const conf = meanConfidence(words);
  if (conf < 15) return true;
  return conf < 45 && (alnumShare(text) < 0.6 || text.replace(/\s/g, "").length < 3);
};

/**
 * The words that mark a list item. A glyph bullet (however OCR read it) is dropped from the text; a number or letter
 * ("1.", "(a)") is kept with its item.
 */
const bulletOf = (line: OcrLine): { words: number } | null => {
  const first = line.words[0];
  if (!first) return null;
  const h = boxHeight(line);
  // A glyph read as a bullet must sit on the line like one: a superscript (footnote mark) sits high.
  const centre = (first.top + first.bottom) / 2 - line.top;
  if (
    line.words.length >= 2 &&
    OCR_BULLET_RE.test(first.text) &&
    first.right - first.left <= h * 0.8 &&
    centre >= h * 0.3 &&
    centre <= h * 0.8
  ) {
    return { words: 1 };
  }
  const prefix = bulletPrefixLength(line.text);
  if (prefix === 0) return null;
  if (/^\s*\(?[\p{L}\p{N}]/u.test(line.text)) return { words: 0 };
  // The shared pattern works on the text; count the words the prefix covers.
  let covered = 0;
  let words = 0;
  for (const w of line.words) {
    if (covered >= prefix - 1) break;
    covered += w.text.length + 1;
    words++;
  }
  return { words: Math.max(1, words) };
};

const lineOf = (words: OcrWord[], rowHeight: number): OcrLine => ({
  ...unionBox(words),
  words,
  text: words.map((w) => w.text).join(" "),
  confidence: meanConfidence(words),
  rowHeight,
});

/** Lines of one unit as running text: broken words re-joined ("docu-" + "ment"), otherwise a space. */
const joinLines = (lines: string[]): string => {
  let out = "";
  for (const line of lines) {
    if (!out) out = line;
    else if (/\p{L}-$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else out = `${out} ${line}`;
  }
  return out.trim();
};

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s[Math.floor(s.length / 2)] ?? 0) : 0;
};

const makeUnit = (lines: OcrLine[], bullet: { words: number } | null, gray: GrayImage | null): TextUnit => {
  const words = lines.flatMap((l) => l.words);
  const texts = lines.map((l) => l.text);
  if (bullet && lines[0])
    texts[0] = lines[0].words
      .slice(bullet.words)
      .map((w) => w.text)
      .join(" ");
  const text = joinLines(texts) || joinLines(lines.map((l) => l.text));
  const box = unionBox(lines);
  const size = median(lines.map(boxHeight));
  const ink = gray ? strokeWidth(gray, words, Math.max(2, size * 0.4)) : null;
  return {
    ...box,
    lines,
    text,
    size,
    ink,
    confidence: meanConfidence(words),
    bullet: bullet !== null,
  };
};

/**
 * Text units of a page in Tesseract's reading order. Words in `exclude` (taken by tables) are left out; so are
 * lines that are noise.
 */
export const buildUnits = (page: OcrPage, { exclude, gray }: { exclude?: Set<OcrWord>; gray?: GrayImage | null }) => {
  const units: TextUnit[] = [];
  for (const block of page.blocks) {
    for (const paragraph of block.paragraphs) {
      let current: OcrLine[] = [];
      let currentBullet: { words: number } | null = null;
      const flush = () => {
        if (current.length > 0) units.push(makeUnit(current, currentBullet, gray ?? null));
        current = [];
        currentBullet = null;
      };
      for (const raw of paragraph.lines) {
        const words = raw.words.filter((w) => !exclude?.has(w) && !isJunkWord(w));
        if (words.length === 0 || isJunkLine(words)) continue;
        // A lone mark ("©", "—") with nothing beside it is a speck or an ornament, not text.
        if (words.length === 1 && alnumShare(words[0]?.text ?? "") === 0 && (words[0]?.text.length ?? 0) <= 2) continue;
        const line = words.length === raw.words.length ? raw : lineOf(words, raw.rowHeight);
        const bullet = bulletOf(line);
        const prev = current[current.length - 1];
        let split = false;
        if (prev) {
          const h = boxHeight(line);
          const ph = boxHeight(prev);
          const ratio = h / Math.max(1, ph);
          const gap = line.top - prev.bottom;
          split = bullet !== null || ratio > 1.45 || ratio < 0.69 || gap > 1.2 * Math.max(h, ph);
        }
        if (split) flush();
        if (current.length === 0) currentBullet = bullet;
        current.push(line);
      }
      flush();
    }
  }
  return mergeContinuations(units);
};

/**
 * Tesseract sometimes ends a paragraph in the middle: the next one starts at the same left edge, in the same
 * size, at ordinary line spacing, and the line before the cut runs the full width (a paragraph's last line
 * is usually short). Such pieces are joined again.
 */
const mergeContinuations = (units: TextUnit[]): TextUnit[] => {
  const out: TextUnit[] = [];
  for (const unit of units) {
    const prev = out[out.length - 1];
    const last = prev?.lines[prev.lines.length - 1];
    const size = prev ? Math.max(prev.size, unit.size) : 0;
    const continues =
      prev &&
      last &&
      !unit.bullet &&
      prev.lines.length >= 1 &&
      Math.abs(unit.left - prev.left) <= size * 0.5 &&
      unit.size / Math.max(1, prev.size) > 0.85 &&
      unit.size / Math.max(1, prev.size) < 1.18 &&
      unit.top - prev.bottom >= -size * 0.3 &&
      unit.top - prev.bottom <= size * 0.45 &&
      last.right >= Math.max(prev.right, unit.right) - size * 1.5 &&
      Math.abs((prev.ink ?? 0) - (unit.ink ?? 0)) <= 0.15 * Math.max(prev.ink ?? 0, unit.ink ?? 0, 0.01);
    if (continues) {
      const lines = [...prev.lines, ...unit.lines];
      const weight = prev.text.length + unit.text.length || 1;
      out[out.length - 1] = {
        ...unionBox(lines),
        lines,
        text: joinLines([prev.text, unit.text]),
        size: median(lines.map(boxHeight)),
        ink:
          prev.ink !== null && unit.ink !== null
            ? (prev.ink * prev.text.length + unit.ink * unit.text.length) / weight
            : (prev.ink ?? unit.ink),
        confidence: meanConfidence(lines.flatMap((l) => l.words)),
        bullet: prev.bullet,
      };
    } else {
      out.push(unit);
    }
  }
  return out;
};

/** Body text size and stroke weight: the values most characters on the page (or document) are set in. */
export const bodyStats = (units: readonly TextUnit[]): BodyStats => {
  const sizes: [number, number][] = [];
  const inks: [number, number][] = [];
  for (const u of units) {
    for (const l of u.lines) sizes.push([boxHeight(l), l.text.length]);
    if (u.ink !== null) inks.push([u.ink, u.text.length]);
  }
  const weightedMedian = (pairs: [number, number][]) => {
    if (pairs.length === 0) return null;
    pairs.sort((a, b) => a[0] - b[0]);
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let acc = 0;
    for (const [v, w] of pairs) {
      acc += w;
      if (acc >= total / 2) return v;
    }
    return pairs[pairs.length - 1]?.[0] ?? null;
  };
  return { size: weightedMedian(sizes) ?? 0, ink: weightedMedian(inks) };
};

/** Stroke width against the body's from which a unit is bold. */
const BOLD = 1.2;

/** Below this mean word confidence (0–100) a unit's wording is too unsure to type it. */
const UNSURE = 50;

/** Page margins where running headers, footers and page numbers sit, as shares of the page height. */
const TOP_BAND = 0.13;
const BOTTOM_BAND = 0.9;

export type ClassifiedUnit = { unit: TextUnit; type: ElementType; text: string };

export const classifyUnits = (
  units: readonly TextUnit[],
  page: { width: number; height: number },
  stats: BodyStats,
): ClassifiedUnit[] => {
  const body = Math.max(1, stats.size);
  const gapBelow = (u: TextUnit) => {
    let best = Infinity;
    for (const o of units) if (o !== u && o.top >= u.bottom - 1) best = Math.min(best, o.top - u.bottom);
    return best;
  };
  const gapAbove = (u: TextUnit) => {
    let best = Infinity;
    for (const o of units) if (o !== u && o.bottom <= u.top + 1) best = Math.min(best, u.top - o.bottom);
    return best;
  };
  return units.map((unit, i): ClassifiedUnit => {
    const text = unit.text;
    const as = (type: ElementType): ClassifiedUnit => ({ unit, type, text });
    const inTop = unit.bottom <= page.height * TOP_BAND;
    const inBottom = unit.top >= page.height * BOTTOM_BAND;
    const short = unit.lines.length <= 2 && text.length <= 150;
    const large = unit.size >= body * 1.3;
    const bold = unit.ink !== null && stats.ink !== null && stats.ink > 0 && unit.ink >= stats.ink * BOLD;
    const following = units.slice(i + 1).some((u) => hasLetters(u.text));

    // Text set vertically (an arXiv stamp in the margin) is kept, outside the reading flow's types.
    if (unit.bottom - unit.top > 3 * (unit.right - unit.left) && text.length > 3) return as("UncategorizedText");
    if ((inTop || inBottom) && isPageNumberText(text)) return as("PageNumber");
    if (inTop && short && !large && !bold && gapBelow(unit) >= body * 1.5) return as("Header");
    if (inBottom && short && !large && !bold && gapAbove(unit) >= body * 1.5) return as("Footer");

    const headingShape =
      unit.lines.length <= 3 &&
      text.length <= 200 &&
      wordCount(text) <= 20 &&
      hasLetters(text) &&
      !/[.,;:]$/.test(text) &&
      !/:\/\/|@|www\./.test(text) &&
      following;
    // What OCR barely read (another script, a picture) is kept but not typed as prose or a heading.
    if (unit.confidence < UNSURE) return as("UncategorizedText");
    // A big or bold line outranks its list number ("1. Introduction" set as a heading).
    if (headingShape && (large || bold) && (!unit.bullet || unit.lines.length === 1)) return as("Title");
    if (unit.bullet) return as("ListItem");
    if (CAPTION_RE.test(text)) return as("FigureCaption");
    if (isEmailAddress(text)) return as("EmailAddress");
    if (isAddress(text)) return as("Address");
    if (headingShape && unit.lines.length === 1 && SECTION_RE.test(text)) return as("Title");
    if (isSentenceLike(text)) return as("NarrativeText");
    return as("UncategorizedText");
  });
};
