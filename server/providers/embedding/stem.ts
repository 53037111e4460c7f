/**
 * A light English stemmer: enough that "indexing", "indexed" and "indexes" meet at "index", without the rule tables
 * of Porter. Words it does not recognise pass through; non-Latin scripts are untouched.
 */

const VOWEL_RE = /[aeiouy]/;
const DOUBLE_RE = /([bcdfghjkmnpqrtvwx])\1$/;

const hasVowel = (s: string) => VOWEL_RE.test(s);

/** "stopp" → "stop", but "fall" and "pass" keep their doubled letter. */
const undouble = (s: string) => (DOUBLE_RE.test(s) ? s.slice(0, -1) : s);

const stripInflection = (word: string): string => {
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(?:x|z|ch|sh|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word) && word.length > 3) return word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5 && hasVowel(word.slice(0, -3))) return undouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4 && hasVowel(word.slice(0, -2))) {
    return word.endsWith("ied") ? `${word.slice(0, -3)}y` : undouble(word.slice(0, -2));
  }
  return word;
};

const DERIVATIONS: [string, string][] = [
  ["ational", "ate"],
  ["ization", "ize"],
  ["fulness", "ful"],
  ["iveness", "ive"],
  ["ations", "ate"],
  ["ation", "ate"],
  ["ement", ""],
  ["ments", ""],
  ["ment", ""],
  ["ness", ""],
  ["ably", "able"],
  ["ibly", "ible"],
  ["ally", "al"],
  ["ly", ""],
];

export const stem = (word: string): string => {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = stripInflection(word);
  for (const [suffix, replacement] of DERIVATIONS) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  // "retrieve" / "retrieving" / "retrieved" all end up as "retriev".
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
};
