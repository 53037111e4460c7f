/**
 * Scripts without letter case. Chinese and Japanese set no space between words, so a line of their prose is one
 * "word" to a count of whitespace-separated tokens; Hebrew and Arabic have spaces but no lower case, so no line of
 * theirs looks like running text to a test for lower-case words. These helpers give such lines a measure of their own.
 */

/** A character of a script written without spaces between words: Han, Hiragana, Katakana (their half widths too). */
const UNSPACED = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\u{20000}-\u{2fa1f}]/u;
const UNSPACED_ALL = new RegExp(UNSPACED.source, "gu");

export const isUnspacedChar = (char: string): boolean => char >= "\u3040" && UNSPACED.test(char);

/** A word of Chinese or Japanese is about two characters long, as counted for prose measures. */
const CHARS_PER_WORD = 2;

/**
 * How many words a text holds: its whitespace-separated tokens, each run of Chinese or Japanese counted as one word
 * every two characters (so a full line of such prose counts as many words as a line of Latin prose does).
 */
export const wordCount = (text: string): number =>
  (text.match(/\S+/g) ?? []).reduce((n, token) => {
    const unspaced = token.match(UNSPACED_ALL)?.length ?? 0;
    return n + Math.max(1, Math.round(unspaced / CHARS_PER_WORD));
  }, 0);

/** Text with letters, none of them upper or lower case: Hebrew, Arabic, Chinese, Japanese (and other such scripts). */
export const isCaseless = (text: string): boolean => /\p{L}/u.test(text) && !/[\p{Lu}\p{Ll}\p{Lt}]/u.test(text);

/** A clause's or a sentence's end in these scripts' punctuation as well as in Latin. */
export const endsClause = (text: string): boolean => /[,;.:!?،؛؟׃，、；：。．！？]$/u.test(text.trim());

/** Chinese or Japanese punctuation (ideographic and full-width forms). */
const UNSPACED_MARK = /[\u3000-\u303f\uff01-\uff65]/u;
/** Latin punctuation a normalised line may end with after Chinese text ("，" read as ","). */
const TRAILING_MARKS = /[,.;:!?)\]"'”’]+$/u;

/**
 * Whether a line wrapped between `before` and `after` breaks Chinese or Japanese text, which sets no space between
 * words: the line ends in such a character (or its punctuation) and the next begins with one.
 */
export const joinsWithoutSpace = (before: string, after: string): boolean => {
  const last = [...before.trimEnd().replace(TRAILING_MARKS, "")].at(-1) ?? "";
  const first = [...after.trimStart()][0] ?? "";
  const unspaced = (c: string) => isUnspacedChar(c) || UNSPACED_MARK.test(c);
  return unspaced(last) && unspaced(first);
};
