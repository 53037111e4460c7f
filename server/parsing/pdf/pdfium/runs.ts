import { closesFirst, isRtlChar, mirrorBrackets } from "../direction";
import type { Box, RotatedText, Run } from "../types";

/**
 * Characters into runs: a run goes on while its characters continue one another on a line in one font, and ends at
 * a wide gap (a table cell, a column gutter), a change of font, size or baseline, or a line break. The layout code
 * then groups runs into rows, segments and columns.
 */

/** One character placed on the page as displayed (top-left origin, points). */
export type PageChar = Box & {
  char: string;
  baseline: number;
  fontSize: number;
  fontName: string;
  mono: boolean;
  horizontal: boolean;
  /** What separates it from the character before: a space in the file, one PDFium inferred, a line break. */
  before: "none" | "space" | "inferred-space" | "line-break";
};

/** A run ends at a gap wider than this many font sizes: a table cell, a column gutter, a tab stop. */
const MAX_GAP_EM = 0.6;
/** Or where the baseline moves by more than this (superscripts, subscripts, the next line). */
const MAX_RISE_EM = 0.2;
/** Or where the text goes back by more than this (overprinting, a new line drawn from the left). */
const MAX_BACKTRACK_EM = 0.3;
/**
 * A space PDFium inferred between two characters that touch is not a word break when the baseline or the size
 * changes there: it infers one between a word and its footnote mark ("Karpukhin∗") or a subscript ("w1").
 */
const TOUCHING_EM = 0.15;

/** Combining marks and spacing accents (TeX draws "ä" as an "a" and a "¨" over it). */
const ACCENT = /^[\p{M}\p{Sk}]$/u;
/** ACCENT.test, answered without the regular expression for the ASCII letters, digits and punctuation of most text. */
const isAccent = (char: string) => {
  const code = char.charCodeAt(0);
  return code < 0x80 ? code === 0x5e || code === 0x60 : ACCENT.test(char);
};

type Building = Run & {
  horizontal: boolean;
  /** The run's characters, and where each starts in `text`. */
  members: PageChar[];
  offsets: number[];
  /** Accents and other marks drawn over the run, placed when it is finished. */
  marks: PageChar[];
  endsWithSpace: boolean;
  lastLeft: number;
  /** Holds a letter of a right-to-left script: its next letters may be drawn leftwards. */
  rtl: boolean;
};

/** The combining form of a spacing accent ("¨" → U+0308), or null when it has none. */
const combining = (char: string): string | null => {
  const mark = char.normalize("NFKD").replace(/^ /, "");
  return /^\p{M}$/u.test(mark) ? mark : null;
};

const cleanText = (text: string): string =>
  // NFKC folds ligatures (ﬁ → fi) and full-width forms so search and embeddings see ordinary letters, and composes
  // a letter with the accent placed after it.
  text.normalize("NFKC").replace(/[\u0000-\u001f\u007f\u00ad\u200b]/g, "");

const LETTER = /\p{L}/u;
const LAM = "\u0644";
const ALEF = /^[\u0622\u0623\u0625\u0627]$/;

/**
 * Arabic writes lam before alef as one glyph ("لا"), which the file maps to both letters; PDFium, reversing the
 * line into reading order, gives them alef first ("خالل" for "خلال"). Two letters in one glyph's box come back in
 * their order.
 */
const unreverseLamAlef = (run: Building, text: string): string => {
  let out = text;
  run.members.forEach((a, i) => {
    const b = run.members[i + 1];
    const at = run.offsets[i]!;
    const oneGlyph = b && Math.abs(a.left - b.left) < 0.01 && Math.abs(a.right - b.right) < 0.01;
    if (!oneGlyph || b.char.normalize("NFKC") !== LAM || !ALEF.test(a.char.normalize("NFKC"))) return;
    if (run.offsets[i + 1] === at + a.char.length) out = out.slice(0, at) + b.char + a.char + out.slice(at + 2);
  });
  return out;
};

/**
 * The run's text: a mark drawn over one of its letters becomes that letter's accent; one between letters (a "^" in
 * code) is a character of its own, at its place.
 */
const runText = (run: Building): string => {
  let text = run.rtl ? unreverseLamAlef(run, run.text) : run.text;
  if (run.marks.length > 0) {
    const inserts: { at: number; text: string }[] = [];
    for (const mark of run.marks) {
      const x = (mark.left + mark.right) / 2;
      const over = run.members.findIndex((m) => m.left <= x && x <= m.right);
      const accent = combining(mark.char);
      if (over >= 0 && accent) {
        inserts.push({ at: run.offsets[over]! + run.members[over]!.char.length, text: accent });
        continue;
      }
      const after = run.members.findIndex((m) => m.left > x);
      inserts.push({ at: after < 0 ? text.length : run.offsets[after]!, text: mark.char });
    }
    // From the end, so earlier offsets stay valid.
    for (const { at, text: insert } of inserts.sort((a, b) => b.at - a.at)) {
      text = text.slice(0, at) + insert + text.slice(at);
    }
  }
  if (run.rtl && closesFirst(text)) text = mirrorBrackets(text);
  return cleanText(run.endsWithSpace ? `${text} ` : text);
};

const continues = (run: Building, c: PageChar): boolean => {
  if (run.horizontal !== c.horizontal || run.fontName !== c.fontName) return false;
  if (Math.abs(run.fontSize - c.fontSize) >= 0.05 * c.fontSize) return false;
  const em = c.fontSize;
  if (!c.horizontal) {
    return c.left <= run.right + em && c.right >= run.left - em && c.top <= run.bottom + em && c.bottom >= run.top - em;
  }
  if (Math.abs(c.baseline - run.baseline) > MAX_RISE_EM * em) return false;
  // A run reads one way: Hebrew or Arabic letters do not go on a Latin word's run, nor Latin letters theirs.
  if (isRtlChar(c.char) ? !run.rtl && LETTER.test(run.text) : run.rtl && LETTER.test(c.char)) return false;
  // Hebrew and Arabic come in reading order, each letter drawn to the left of the one before.
  if ((run.rtl || isRtlChar(c.char)) && c.left < run.lastLeft) {
    const gap = run.lastLeft - c.right;
    return gap <= MAX_GAP_EM * em && gap >= -MAX_BACKTRACK_EM * em;
  }
  return (
    c.left - run.right <= MAX_GAP_EM * em &&
    // The letters of a ligature share its box: the next one starts where the last one started.
    c.left - run.lastLeft >= -MAX_BACKTRACK_EM * em
  );
};

/** The run a mark is drawn over or inside: on its line, within its letters. */
const runUnder = (built: Building[], mark: PageChar): Building | undefined => {
  const x = (mark.left + mark.right) / 2;
  return built.find(
    (run) =>
      run.horizontal &&
      mark.top < run.bottom &&
      mark.bottom > run.top &&
      x >= run.left - 0.3 * run.fontSize &&
      x <= run.right + 0.3 * run.fontSize,
  );
};

const startRun = (c: PageChar): Building => ({
  left: c.left,
  top: c.top,
  right: c.right,
  bottom: c.bottom,
  text: c.char,
  members: [c],
  offsets: [0],
  marks: [],
  fontSize: c.fontSize,
  fontName: c.fontName,
  mono: c.mono,
  baseline: c.baseline,
  horizontal: c.horizontal,
  endsWithSpace: false,
  lastLeft: c.left,
  rtl: isRtlChar(c.char),
});

/**
 * Accents and marks (˘ ¨ ´ ^) are placed after all runs are built: PDFium gives a separately drawn accent after the
 * other characters of its line, so it joins the run it sits in, as its letter's accent or as a character at its place.
 */
export const toRuns = (chars: readonly PageChar[]): { runs: Run[]; rotated: RotatedText[] } => {
  const built: Building[] = [];
  const marks: PageChar[] = [];
  let current: Building | null = null;
  let last: PageChar | null = null;

  for (const c of chars) {
    if (c.horizontal && isAccent(c.char)) {
      marks.push(c);
      continue;
    }
    // A superscript or subscript touching (or overlapping: TeX sets a footnote mark over the comma after it) the
    // character before: PDFium's inferred space is a change of baseline, not a word break.
    const shifted =
      last !== null &&
      (Math.abs(c.baseline - last.baseline) > 0.05 * c.fontSize ||
        Math.abs(c.fontSize - last.fontSize) > 0.05 * c.fontSize);
    const touching =
      shifted &&
      last !== null &&
      c.left - last.right < TOUCHING_EM * Math.min(c.fontSize, last.fontSize) &&
      c.right > last.left &&
      c.top < last.bottom &&
      c.bottom > last.top;
    const space = c.before === "space" || c.before === "line-break" || (c.before === "inferred-space" && !touching);
    if (current && c.before !== "line-break" && continues(current, c)) {
      if (space) current.text += " ";
      current.members.push(c);
      current.offsets.push(current.text.length);
      current.text += c.char;
      current.lastLeft = c.left;
      current.rtl ||= isRtlChar(c.char);
      current.left = Math.min(current.left, c.left);
      current.top = Math.min(current.top, c.top);
      current.right = Math.max(current.right, c.right);
      current.bottom = Math.max(current.bottom, c.bottom);
    } else {
      if (current) current.endsWithSpace = space;
      built.push((current = startRun(c)));
    }
    last = c;
  }
  for (const mark of marks) {
    const run = runUnder(built, mark);
    if (run) run.marks.push(mark);
    else built.push(startRun(mark));
  }

  const runs: Run[] = [];
  const rotated: RotatedText[] = [];
  for (const run of built) {
    const text = runText(run);
    if (text.trim() === "") continue;
    const { left, top, right, bottom, fontSize, fontName, mono, baseline } = run;
    if (run.horizontal) runs.push({ left, top, right, bottom, text, fontSize, fontName, mono, baseline });
    else rotated.push({ left, top, right, bottom, text, fontSize });
  }
  return { runs, rotated };
};
