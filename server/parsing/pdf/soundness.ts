import type { PageText } from "./types";

/**
 * Whether a page's text layer can be trusted, or the page must be read from its pixels. A page has no usable text
 * when it prints (almost) nothing, or when what it prints is a broken encoding: glyphs mapped to private-use code
 * points or U+FFFD, runs of symbols where letters should be, or "words" without vowels (fonts whose codes were
 * shifted, "Wkh txlfn eurzq ira"; counted once each, as a table may repeat an acronym down a column). Decided per page, so one broken font does not send a whole report to OCR.
 */

export type TextLayerVerdict = { chars: number; sound: boolean; reason: "text" | "no-text" | "garbled" };

/** Fewer printed characters than this and the page has no text layer to speak of (a stamp, a page number). */
export const MIN_TEXT_CHARS = 10;

const BROKEN_RE = /[\uE000-\uF8FF\uFFFD]/gu;
const ORDINARY_RE = /[\p{L}\p{N}\p{Zs}.,;:!?'"()[\]{}\-–—/%&$€£¥+*=<>@#°§·•…’‘“”«»]/gu;
const LATIN_WORD_RE = /^[a-zà-ÿ]{3,}$/i;
const VOWEL_RE = /[aeiouyà-æè-ïò-öù-üÿ]/i;

export const judgeTextLayer = (page: Pick<PageText, "runs" | "rotated">): TextLayerVerdict => {
  let text = "";
  for (const r of page.runs) text += `${r.text} `;
  for (const r of page.rotated) text += `${r.text} `;
  const compact = text.replace(/\s+/g, "");
  const chars = compact.length;
  if (chars < MIN_TEXT_CHARS) return { chars, sound: false, reason: "no-text" };
  const broken = compact.match(BROKEN_RE)?.length ?? 0;
  if (broken / chars > 0.05) return { chars, sound: false, reason: "garbled" };
  const odd = compact.replace(ORDINARY_RE, "").length;
  if (odd / chars > 0.3) return { chars, sound: false, reason: "garbled" };
  const words = text.split(/[\s\p{P}\p{N}]+/u).filter((w) => LATIN_WORD_RE.test(w));
  if (words.length >= 20) {
    // Judged on distinct words: a table's column repeating one acronym ("SVR" down 55 rows) is no broken font.
    const distinct = [...new Set(words.map((w) => w.toLowerCase()))];
    const voiced = distinct.filter((w) => VOWEL_RE.test(w)).length;
    if (voiced / distinct.length < 0.6) return { chars, sound: false, reason: "garbled" };
  }
  return { chars, sound: true, reason: "text" };
};
