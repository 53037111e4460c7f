import { boxHeight, boxWidth, type GrayImage, type OcrWord, type PixelBox, type Rulings } from "./types";

/**
 * Printed marks Tesseract's page layout left out: it drops small isolated text (a page number alone at the foot
 * of the page, a short label) as noise. Ink that no word covers is grouped into line-sized patches, which the
 * caller reads again one by one.
 */

/** Enough for the line numbers of a page of numbered lines (pleading paper has 28), most of them dropped. */
const MAX_PATCHES = 32;

export const findMissedText = ({
  gray,
  words,
  rulings,
  lineHeight,
}: {
  gray: GrayImage;
  words: readonly OcrWord[];
  rulings: Rulings;
  lineHeight: number;
}): PixelBox[] => {
  const cell = Math.max(2, Math.round(lineHeight / 4));
  const cols = Math.ceil(gray.width / cell);
  const rows = Math.ceil(gray.height / cell);
  const covered = new Uint8Array(cols * rows);
  const cover = (left: number, top: number, right: number, bottom: number) => {
    const c0 = Math.max(0, Math.floor(left / cell));
    const c1 = Math.min(cols - 1, Math.floor(right / cell));
    const r0 = Math.max(0, Math.floor(top / cell));
    const r1 = Math.min(rows - 1, Math.floor(bottom / cell));
    for (let r = r0; r <= r1; r++) covered.fill(1, r * cols + c0, r * cols + c1 + 1);
  };
  const pad = lineHeight * 0.3;
  for (const w of words) cover(w.left - pad, w.top - pad, w.right + pad, w.bottom + pad);
  for (const r of rulings.horizontal) cover(r.from - 2, r.at - 2, r.to + 2, r.atEnd + 2);
  for (const r of rulings.vertical) cover(r.at - 2, r.from - 2, r.atEnd + 2, r.to + 2);

  const inked = new Uint16Array(cols * rows);
  for (let y = 0; y < gray.height; y++) {
    const row = y * gray.width;
    const base = Math.floor(y / cell) * cols;
    for (let x = 0; x < gray.width; x++) {
      if ((gray.data[row + x] ?? 255) >= gray.darkBelow) continue;
      const i = base + Math.floor(x / cell);
      if (!covered[i] && inked[i]! < 65535) inked[i]!++;
    }
  }

  // Cells with ink, joined across gaps up to about a word space along the row and one cell up or down.
  const reachX = Math.max(1, Math.round((lineHeight * 0.8) / cell));
  const seen = new Uint8Array(cols * rows);
  const patches: (PixelBox & { ink: number })[] = [];
  for (let start = 0; start < inked.length; start++) {
    if (!inked[start] || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    let [c0, c1, r0, r1, ink] = [cols, 0, rows, 0, 0];
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const r = Math.floor(i / cols);
      const c = i % cols;
      c0 = Math.min(c0, c);
      c1 = Math.max(c1, c);
      r0 = Math.min(r0, r);
      r1 = Math.max(r1, r);
      ink += inked[i] ?? 0;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -reachX; dc <= reachX; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
          const j = rr * cols + cc;
          if (inked[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    patches.push({
      left: c0 * cell,
      top: r0 * cell,
      right: Math.min(gray.width, (c1 + 1) * cell),
      bottom: Math.min(gray.height, (r1 + 1) * cell),
      ink,
    });
  }

  return patches
    .filter((p) => {
      const h = boxHeight(p);
      const w = boxWidth(p);
      const density = p.ink / Math.max(1, w * h);
      // Text-sized: a line or two high, not a speck, not a picture or a solid block.
      return (
        h >= lineHeight * 0.5 && h <= lineHeight * 2.5 && w >= lineHeight * 0.3 && density >= 0.04 && density <= 0.5
      );
    })
    .sort((a, b) => b.ink - a.ink)
    .slice(0, MAX_PATCHES)
    .map(({ left, top, right, bottom }) => ({ left, top, right, bottom }));
};
