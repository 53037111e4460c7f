/**
 * Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko …) in the text layer. PDFium gives their characters in
 * reading order, each drawn to the left of the one before; runs and lines must follow that order instead of the
 * page's left-to-right one, or every word comes out reversed and cut into letters.
 */

/** A letter of a right-to-left script, its presentation forms included. */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const LETTER = /\p{L}/u;

export const isRtlChar = (char: string): boolean => char >= "\u0590" && RTL_LETTER.test(char);

/**
 * Whether a line reads right to left: more of its letters belong to right-to-left scripts than not. Numbers and
 * Latin words inside it keep their own order (they are runs of their own, each read left to right).
 */
export const readsRightToLeft = (texts: readonly string[]): boolean => {
  if (!texts.some((text) => RTL_LETTER.test(text))) return false;
  let rtl = 0;
  let ltr = 0;
  for (const text of texts) {
    for (const char of text) {
      if (char < "A") continue;
      if (isRtlChar(char)) rtl++;
      else if (LETTER.test(char)) ltr++;
    }
  }
  return rtl > ltr;
};
