/**
 * Words out of a CTC recognition (PP-OCR's: one time step per 8 input pixels, class 0 the blank, the last class the
 * space). Greedy decoding keeps, for every character, its first and last time step and the strongest space
 * probability on the steps between it and the character before. A space is where the model says so (or nearly), or
 * where it gives a space some chance and the gap between the characters is wide for this line (relative to its own
 * character pitch, so the rule holds at every text size and resolution): in small, blurred or condensed text the
 * space is often second choice under the blank, and words ran together ("RULESANDINSTRUCTIONS").
 */

export type CtcChar = {
  text: string;
  /** First and last time step where this character is the best class. */
  first: number;
  last: number;
  /** Its probability at its first step (0–1). */
  prob: number;
  /** Highest space probability from the previous character's last step to this one's first (1 if a space was read). */
  space: number;
};

/** A space as likely as not: taken on this probability alone. */
const SPACE_LIKELY = 0.5;
/**
 * Weaker evidence, taken when the gap is also wide: at least WIDE_GAP × the line's median pitch (first step to first
 * step of characters with less space evidence). Tuned on rendered lines (DejaVu 8–30 px) and 300-dpi renders of
 * three corpus pages: lower thresholds split words at 300 dpi ("Présenc es", "IS BN").
 */
const SPACE_POSSIBLE = 0.1;
const WIDE_GAP = 1.7;

/** Greedy CTC decoding with step ranges and space evidence; `dictionary[0]` is the blank, the last class the space. */
export const decodeCtc = (
  data: ArrayLike<number>,
  steps: number,
  classes: number,
  dictionary: readonly string[],
): CtcChar[] => {
  const spaceClass = classes - 1;
  const chars: CtcChar[] = [];
  let previous = 0;
  let space = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestProb = -Infinity;
    const row = t * classes;
    for (let c = 0; c < classes; c++) {
      const p = data[row + c] ?? 0;
      if (p > bestProb) {
        bestProb = p;
        best = c;
      }
    }
    const pSpace = data[row + spaceClass] ?? 0;
    const isChar = best !== 0 && best !== spaceClass;
    const current = chars[chars.length - 1];
    if (isChar && best === previous && current) {
      current.last = t;
      space = pSpace;
    } else if (isChar) {
      chars.push({ text: dictionary[best] ?? "", first: t, last: t, prob: bestProb, space: Math.max(space, pSpace) });
      space = pSpace;
    } else space = Math.max(space, best === spaceClass ? 1 : pSpace);
    previous = best;
  }
  return chars;
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Characters grouped into words (see the rule above). */
export const splitWords = (chars: readonly CtcChar[]): CtcChar[][] => {
  const pitches: number[] = [];
  for (let i = 1; i < chars.length; i++) {
    const c = chars[i] as CtcChar;
    if (c.space < SPACE_POSSIBLE) pitches.push(c.first - (chars[i - 1] as CtcChar).first);
  }
  const pitch = Math.max(1, median(pitches));
  const words: CtcChar[][] = [];
  let word: CtcChar[] = [];
  chars.forEach((c, i) => {
    const before = chars[i - 1];
    const wide = before !== undefined && c.first - before.first >= WIDE_GAP * pitch;
    if (word.length > 0 && (c.space >= SPACE_LIKELY || (c.space >= SPACE_POSSIBLE && wide))) {
      words.push(word);
      word = [];
    }
    word.push(c);
  });
  if (word.length > 0) words.push(word);
  return words;
};
