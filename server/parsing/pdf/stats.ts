import { maxOf, median, minOf, weightedMode, type Line, type Run } from "./types";

/** What "ordinary text" looks like in this document, to tell headings, margins and paragraph breaks apart. */
export type DocStats = {
  bodySize: number;
  bodyFont: string;
  /** Usual baseline-to-baseline distance for a font size (the document's leading). */
  pitch: (fontSize: number) => number;
};

const sizeKey = (size: number) => Math.round(size * 2) / 2;

/**
 * The size most text is set in. When no size clearly leads (a page of headings, one line per level, the last one
 * the body's), the smallest of the near-equal sizes is the body's: headings are set larger than the text they head.
 */
const bodySizeOf = (runs: Run[]): number => {
  const totals = new Map<number, number>();
  for (const r of runs) totals.set(sizeKey(r.fontSize), (totals.get(sizeKey(r.fontSize)) ?? 0) + r.text.length);
  const top = maxOf([...totals.values()]);
  const near = [...totals].filter(([, chars]) => chars >= 0.9 * top).map(([size]) => size);
  return near.length ? minOf(near) : 10;
};

/** Share of a document's characters outside its code listings above which the listings' font is not the body's. */
const MIN_PROSE_SHARE = 0.1;

/**
 * The runs that tell the body's size and font: those outside monospace code when there is prose enough. A
 * documentation page is mostly listings in a smaller typewriter font, and its paragraphs would look set apart.
 */
const bodyRuns = (runs: Run[]): Run[] => {
  const chars = (list: Run[]) => list.reduce((n, r) => n + r.text.length, 0);
  const prose = runs.filter((r) => !r.mono);
  return chars(prose) >= MIN_PROSE_SHARE * chars(runs) ? prose : runs;
};

export const computeStats = ({ runs: allRuns, lineGroups }: { runs: Run[]; lineGroups: Line[][] }): DocStats => {
  const runs = bodyRuns(allRuns);
  const bodySize = bodySizeOf(runs);
  // The body's font is the font of text at the body's size: a page holding little text (a title at 20 pt and a
  // line below it) would otherwise count the title's font as the body's and every body line as set apart.
  const atBodySize = runs.filter((r) => sizeKey(r.fontSize) === sizeKey(bodySize));
  const bodyFont =
    weightedMode((atBodySize.length ? atBodySize : runs).map((r): [string, number] => [r.fontName, r.text.length])) ??
    "";
  const pitches = new Map<number, number[]>();
  for (const lines of lineGroups) {
    for (let i = 1; i < lines.length; i++) {
      const a = lines[i - 1];
      const b = lines[i];
      if (!a || !b || sizeKey(a.fontSize) !== sizeKey(b.fontSize)) continue;
      const pitch = b.baseline - a.baseline;
      if (pitch <= 0 || pitch > 2 * a.fontSize) continue;
      const key = sizeKey(a.fontSize);
      const list = pitches.get(key);
      if (list) list.push(pitch);
      else pitches.set(key, [pitch]);
    }
  }
  const typical = new Map<number, number>();
  for (const [key, values] of pitches) if (values.length >= 3) typical.set(key, median(values));
  return {
    bodySize,
    bodyFont,
    pitch: (fontSize) => typical.get(sizeKey(fontSize)) ?? 1.2 * fontSize,
  };
};

const ITEM_MARK_RE = /^\s*[\p{L}\d]{1,4}[.)]\s*$/u;

/**
 * Share of a line's characters set in its dominant font: 1 for a line wholly in one font. Runs in another font
 * without a word of two letters (inline math such as "u · ω = 0", a symbol glyph) are left out: a heading with a
 * formula in it is still set wholly in the heading's font. A number or letter opening an item ("5. ", "b)") in its
 * own font still counts: a list's numbering set apart from its text. So is one word in a typewriter font within a
 * line in another ("5. REFERENCE FORMATTING WITH asmeconf.bst"): the name of a command, file or function.
 */
export const fontShare = (line: Line): number => {
  let total = 0;
  let same = 0;
  for (const s of line.segments) {
    for (const r of s.runs) {
      if (r.fontName !== line.fontName && !/\p{L}{2}/u.test(r.text) && !ITEM_MARK_RE.test(r.text)) continue;
      if (r.fontName !== line.fontName && isCodeWord(r)) continue;
      total += r.text.length;
      if (r.fontName === line.fontName) same += r.text.length;
    }
  }
  return total === 0 ? 0 : same / total;
};

/** A single word set in a monospace font: a command, file or function named in running text or a heading. */
export const isCodeWord = (run: Run): boolean => run.mono && /^\S+$/.test(run.text.trim());

/** Share of characters set in a monospace font, over some lines. */
export const monoShare = (lines: Line[]): number => {
  let total = 0;
  let mono = 0;
  for (const line of lines) {
    for (const s of line.segments) {
      for (const r of s.runs) {
        total += r.text.length;
        if (r.mono) mono += r.text.length;
      }
    }
  }
  return total === 0 ? 0 : mono / total;
};
