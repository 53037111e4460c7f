import sharp from "sharp";
import type { GrayImage, PixelBox, Rule, Rulings } from "./types";

/**
 * Pixel-level measurements on the page image that OCR does not report: where the ink is, how tall the text is
 * before recognising it, how heavy a line's strokes are (bold headings), and the page's dark threshold.
 */

/** Darker than this is never background, even on a page where Otsu's split lands high (coloured table fills). */
const MAX_DARK_THRESHOLD = 140;
/** A two-tone scan ties Otsu anywhere between its two grey levels; anti-aliased edges still count as ink. */
const MIN_DARK_THRESHOLD = 60;

/** Otsu's threshold over the luminance histogram: the split that best separates ink from paper. */
const otsu = (data: Uint8Array): number => {
  const hist = new Float64Array(256);
  // A sample is enough for a histogram, and keeps this cheap on 8-megapixel pages.
  const step = Math.max(1, Math.floor(data.length / 2_000_000));
  let n = 0;
  for (let i = 0; i < data.length; i += step) {
    hist[data[i] ?? 255]!++;
    n++;
  }
  let sum = 0;
  for (let t = 0; t < 256; t++) sum += t * (hist[t] ?? 0);
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t] ?? 0;
    if (wB === 0) continue;
    const wF = n - wB;
    if (wF === 0) break;
    sumB += t * (hist[t] ?? 0);
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
};

export const toGray = async (png: Buffer): Promise<GrayImage> => {
  const { data, info } = await sharp(png, { limitInputPixels: false })
    .flatten({ background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
  return {
    data: pixels,
    width: info.width,
    height: info.height,
    darkBelow: Math.max(MIN_DARK_THRESHOLD, Math.min(otsu(pixels), MAX_DARK_THRESHOLD)),
  };
};

const clampBox = (gray: GrayImage, box: PixelBox) => ({
  left: Math.max(0, Math.floor(box.left)),
  top: Math.max(0, Math.floor(box.top)),
  right: Math.min(gray.width, Math.ceil(box.right)),
  bottom: Math.min(gray.height, Math.ceil(box.bottom)),
});

/** Share of dark pixels in a box (0–1): bold text inks about half as much again as regular text of its size. */
export const inkDensity = (gray: GrayImage, box: PixelBox): number => {
  const b = clampBox(gray, box);
  let dark = 0;
  let total = 0;
  for (let y = b.top; y < b.bottom; y++) {
    const row = y * gray.width;
    for (let x = b.left; x < b.right; x++) {
      total++;
      if ((gray.data[row + x] ?? 255) < gray.darkBelow) dark++;
    }
  }
  return total === 0 ? 0 : dark / total;
};

/**
 * Mean thickness in pixels of the strokes in some boxes: the length of dark runs along each pixel row, leaving
 * out runs longer than `maxRun` (horizontal bars of letters, underlines). Bold text has thicker strokes than
 * regular text of the same size, whatever the letters; ink share per box depends too much on ascenders.
 */
export const strokeWidth = (gray: GrayImage, boxes: readonly PixelBox[], maxRun: number): number | null => {
  let total = 0;
  let runs = 0;
  for (const box of boxes) {
    const b = clampBox(gray, box);
    for (let y = b.top; y < b.bottom; y++) {
      const row = y * gray.width;
      let run = 0;
      for (let x = b.left; x <= b.right; x++) {
        const dark = x < b.right && (gray.data[row + x] ?? 255) < gray.darkBelow;
        if (dark) run++;
        else if (run > 0) {
          if (run <= maxRun) {
            total += run;
            runs++;
          }
          run = 0;
        }
      }
    }
  }
  return runs === 0 ? null : total / runs;
};

/** Share of the whole page that is ink: a blank scan is not worth keeping as an image. */
export const pageInk = (gray: GrayImage): number => {
  let dark = 0;
  const step = Math.max(1, Math.floor(gray.data.length / 1_000_000));
  let n = 0;
  for (let i = 0; i < gray.data.length; i += step) {
    n++;
    if ((gray.data[i] ?? 255) < gray.darkBelow) dark++;
  }
  return n === 0 ? 0 : dark / n;
};

/**
 * Typical height in pixels of a text line, measured before OCR from the ink profile of vertical strips: runs of
 * inked rows are lines of text. Tesseract reads text best at 20–40 px per line; small renders are enlarged first.
 * Returns null when the page has too little text to tell.
 */
export const estimateLineHeight = (gray: GrayImage): number | null => {
  const strips = Math.max(1, Math.min(6, Math.floor(gray.width / 150)));
  const stripWidth = Math.floor(gray.width / strips);
  const heights: number[] = [];
  for (let s = 0; s < strips; s++) {
    const x0 = s * stripWidth;
    const x1 = s === strips - 1 ? gray.width : x0 + stripWidth;
    // A row is inked when a few pixels of it are dark; one speck does not make a text line.
    const minDark = Math.max(2, Math.floor((x1 - x0) * 0.005));
    let run = 0;
    for (let y = 0; y <= gray.height; y++) {
      let dark = 0;
      if (y < gray.height) {
        const row = y * gray.width;
        for (let x = x0; x < x1; x++) if ((gray.data[row + x] ?? 255) < gray.darkBelow) dark++;
      }
      if (dark >= minDark) {
        run++;
      } else {
        if (run >= 4 && run <= 400) heights.push(run);
        run = 0;
      }
    }
  }
  if (heights.length < 3) return null;
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? null;
};

/**
 * The page with its ruling lines painted white, as a greyscale PNG. Tesseract reads underlined words and the text
 * of ruled tables far better without the lines (it takes them for letters or merges them with descenders).
 */
export const withoutRulings = async (gray: GrayImage, rulings: Rulings): Promise<Buffer> => {
  const data = Buffer.from(gray.data);
  const paint = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = Math.max(0, y0); y <= Math.min(gray.height - 1, y1); y++) {
      data.fill(255, y * gray.width + Math.max(0, x0), y * gray.width + Math.min(gray.width - 1, x1) + 1);
    }
  };
  const pad = 1;
  for (const r of rulings.horizontal as Rule[]) paint(r.from - pad, r.to + pad, r.at - pad, r.atEnd + pad);
  for (const r of rulings.vertical as Rule[]) paint(r.at - pad, r.atEnd + pad, r.from - pad, r.to + pad);
  return sharp(data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
};
