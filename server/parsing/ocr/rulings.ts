import type { GrayImage, Rule, Rulings } from "./types";

/**
 * Ruling lines of a page image: long, thin, dark runs of pixels, horizontal or vertical. They outline table grids
 * (and the top/middle/bottom rules of typeset tables). Thick dark areas (photos, filled bars) are not lines.
 */

export type RulingOptions = {
  /** Shortest horizontal / vertical line kept, in pixels. */
  minHorizontal: number;
  minVertical: number;
  /** Thicker than this is a filled area, not a line. */
  maxThickness: number;
};

/** A one-pixel gap inside a line is noise (JPEG artefacts); wider ones would join the letters of a word. */
const BRIDGE = 1;
/** Share of a run that must really be dark: a line is solid, bridged letters are not. */
const SOLID = 0.9;

type Open = Rule & { last: number };

/**
 * Scans the image line by line along one axis; runs on neighbouring scan lines that overlap become one segment.
 * `pixel(i, j)` reads the pixel at position j along scan line i.
 */
const scan = (
  lines: number,
  length: number,
  pixel: (i: number, j: number) => number,
  darkBelow: number,
  minLength: number,
  maxThickness: number,
): Rule[] => {
  const done: Rule[] = [];
  let open: Open[] = [];
  for (let i = 0; i <= lines; i++) {
    const runs: [number, number][] = [];
    if (i < lines) {
      let start = -1;
      let lastDark = -1;
      let dark = 0;
      const close = () => {
        const length = lastDark - start + 1;
        if (start >= 0 && length >= minLength && dark >= length * SOLID) runs.push([start, lastDark]);
      };
      for (let j = 0; j < length; j++) {
        if (pixel(i, j) < darkBelow) {
          if (start < 0 || j - lastDark > BRIDGE + 1) {
            close();
            start = j;
            dark = 0;
          }
          lastDark = j;
          dark++;
        }
      }
      close();
    }
    const next: Open[] = [];
    for (const [from, to] of runs) {
      const match = open.find(
        (o) =>
          o.last === i - 1 && Math.min(o.to, to) - Math.max(o.from, from) >= 0.5 * Math.min(o.to - o.from, to - from),
      );
      if (match) {
        match.from = Math.min(match.from, from);
        match.to = Math.max(match.to, to);
        match.atEnd = i;
        match.last = i;
      } else {
        next.push({ from, to, at: i, atEnd: i, last: i });
      }
    }
    const still: Open[] = [];
    for (const o of open) {
      if (o.last === i) still.push(o);
      else if (o.atEnd - o.at + 1 <= maxThickness) done.push({ from: o.from, to: o.to, at: o.at, atEnd: o.atEnd });
    }
    // A filled area keeps growing as one segment and is dropped when it ends: too thick to be a line.
    open = [...still, ...next];
  }
  return done;
};

export const findRulings = (gray: GrayImage, options: RulingOptions): Rulings => {
  const { data, width, height, darkBelow } = gray;
  const horizontal = scan(
    height,
    width,
    (y, x) => data[y * width + x] ?? 255,
    darkBelow,
    options.minHorizontal,
    options.maxThickness,
  );
  const vertical = scan(
    width,
    height,
    (x, y) => data[y * width + x] ?? 255,
    darkBelow,
    options.minVertical,
    options.maxThickness,
  );
  return { horizontal, vertical };
};

/** Default sizes for a page whose text lines are about `lineHeight` pixels tall. */
export const rulingOptionsFor = (gray: GrayImage, lineHeight: number): RulingOptions => ({
  minHorizontal: Math.max(40, Math.round(lineHeight * 4)),
  minVertical: Math.max(20, Math.round(lineHeight * 1.6)),
  maxThickness: Math.max(4, Math.ceil(Math.max(gray.width, gray.height) * 0.004)),
});

/** Ends this many pixels apart still meet (a scanned rule stops a little short of the rule it joins). */
const MEET_PX = 8;
/** A vertical rule at least this many line heights long is no letter's stroke. */
const LONG_VERTICAL_LINES = 3;

const meets = (v: Rule, h: Rule) =>
  v.at <= h.to + MEET_PX && v.atEnd >= h.from - MEET_PX && h.at <= v.to + MEET_PX && h.atEnd >= v.from - MEET_PX;

/**
 * The rulings to paint out before OCR. The stems of a large bold title's letters ("h", "d", "l") are dark, narrow and
 * as tall as a short vertical rule: painted out, "hidden" read "niiccen". A vertical that meets a horizontal (a grid,
 * a box) or runs over several lines (a column rule) is a rule; a short lone one is left for OCR.
 */
export const rulingsToPaint = (rulings: Rulings, lineHeight: number): Rulings => ({
  horizontal: rulings.horizontal,
  vertical: rulings.vertical.filter(
    (v) => v.to - v.from >= LONG_VERTICAL_LINES * lineHeight || rulings.horizontal.some((h) => meets(v, h)),
  ),
});
