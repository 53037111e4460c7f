/**
 * Digit look-alikes read as letters (O for 0, l or I for 1, S for 5, B for 8, Z for 2…) put back where the token
 * and its line say a number is meant: a token that is mostly digits, a date, a number with thousands separators,
 * an ISBN (the check digit decides), a DOI prefix. Words stay words: a token without any digit is changed only
 * when its line says it is an ISBN, and a letter is replaced only when every letter of the run can be. A zero
 * inside a lower-case word is made an o again (fixZeroForO).
 */

const LOOK_ALIKES: Record<string, string> = {
  O: "0",
  o: "0",
  D: "0",
  l: "1",
  I: "1",
  "|": "1",
  S: "5",
  s: "5",
  B: "8",
  Z: "2",
  z: "2",
  G: "6",
  g: "9",
};
/** At either end of a token only the commonest look-alikes count: elsewhere a letter there is a unit (5G, 1990s). */
const AT_EDGE = new Set(["O", "o", "l", "I", "|"]);

const isConfusable = (c: string) => c in LOOK_ALIKES;

/**
 * Look-alikes made digits: all inside a part of the token, only AT_EDGE ones at a part's first or last place (parts
 * are split at - / : and spaces, so "100234-B7" keeps its B).
 */
const asDigits = (s: string) => {
  const chars = [...s];
  const edges = new Set<number>();
  let start = -1;
  chars.forEach((c, i) => {
    const inside = /[\p{L}\p{N}|.,]/u.test(c);
    if (inside && start < 0) start = i;
    const endsHere = inside && (i === chars.length - 1 || !/[\p{L}\p{N}|.,]/u.test(chars[i + 1] ?? ""));
    if (endsHere) {
      edges.add(start).add(i);
      start = -1;
    }
  });
  return chars
    .map((c, i) => {
      if (!isConfusable(c)) return c;
      if (edges.has(i) && !AT_EDGE.has(c)) return c;
      return LOOK_ALIKES[c] ?? c;
    })
    .join("");
};

/** Shapes a token can have once its look-alikes are digits: only these are accepted. */
const NUMBER = /^[-+−(]?\$?€?£?\d{1,3}(?:[,.\u202f ]\d{3})*(?:[.,]\d+)?%?\)?[.,;:]?$/;
const PLAIN_NUMBER = /^[-+−(]?\$?\d+(?:[.,]\d+)?%?\)?[.,;:]?$/;
const DATE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}[.,;:]?$/;
const RANGE = /^\d+(?:[.,]\d+)?[-–]\d+(?:[.,]\d+)?[.,;:]?$/;
const TIME = /^\d{1,2}:\d{2}(?::\d{2})?[.,;:]?$/;
const ISBN_SHAPE = /^(?:97[89][- ]?)?\d{1,5}[- ]?\d{1,7}[- ]?\d{1,7}[- ]?[\dX][.,;:]?$/;

const digitCount = (s: string) => (s.match(/\d/g) ?? []).length;
const letterCount = (s: string) => (s.match(/\p{L}/gu) ?? []).length;

/** ISBN-10 or ISBN-13 check digit holds. */
export const isValidIsbn = (token: string): boolean => {
  const d = token.replace(/[-\s]/g, "").replace(/[.,;:]$/, "");
  if (/^\d{13}$/.test(d)) {
    let sum = 0;
    for (let i = 0; i < 13; i++) sum += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
    return sum % 10 === 0;
  }
  if (/^\d{9}[\dX]$/.test(d)) {
    let sum = 0;
    for (let i = 0; i < 10; i++) sum += (d[i] === "X" ? 10 : Number(d[i])) * (10 - i);
    return sum % 11 === 0;
  }
  return false;
};

const numericShape = (s: string) =>
  NUMBER.test(s) || PLAIN_NUMBER.test(s) || DATE.test(s) || RANGE.test(s) || TIME.test(s);

/** A DOI's registrant prefix is `10.` and four or more digits; the suffix is the publisher's and kept as read. */
const fixDoi = (token: string): string | null => {
  const m = /^(doi:|https?:\/\/(?:dx\.)?doi\.org\/)?([0-9OolI|]{2}\.[0-9OolISB]{4,9})(\/.+)$/i.exec(token);
  if (!m) return null;
  const prefix = asDigits(m[2] as string);
  return /^10\.\d{4,9}$/.test(prefix) ? `${m[1] ?? ""}${prefix}${m[3]}` : null;
};

/** A citation's bracket read as a bar, as Tesseract reads "[38]" in a table cell: "|38]" and "[38|" are "[38]". */
const fixBracket = (token: string): string | null => {
  const open = /^\|(\d[\d,–-]*\][.,;:]?)$/.exec(token);
  if (open) return `[${open[1]}`;
  const close = /^(\[\d[\d,–-]*)\|([.,;:]?)$/.exec(token);
  return close ? `${close[1]}]${close[2]}` : null;
};

/** A version number after a v: "vl.1" is v1.1, "SQuADvl.1" SQuADv1.1 (dotted, with a digit of its own). */
const fixVersion = (token: string): string | null => {
  const m = /^(.*v)([0-9OolI|]+(?:\.[0-9OolI|]+)+)([.,;:)]?)$/.exec(token);
  if (!m || digitCount(m[2] as string) === 0) return null;
  const version = asDigits(m[2] as string);
  return /^\d+(?:\.\d+)+$/.test(version) && version !== m[2] ? `${m[1]}${version}${m[3]}` : null;
};

/**
 * A question mark Tesseract puts between an acronym and its number ("BM?25", "TF-IDF/BM?25" for BM25, seen on a
 * 300-dpi scan of a paper set in Times): written text does not put "?" between a capital and a digit.
 */
const fixStrayQuestion = (token: string): string | null => {
  const fixed = token.replace(/(?<=[A-Z])\?(?=\d)/g, "");
  return fixed === token ? null : fixed;
};

/** Two-letter words a 0 for o can come from ("0r", "0f"); "to" is left out: t0 is a subscript in formulas. */
const SHORT_O_WORDS = new Set(["or", "of", "on", "no", "so", "do", "go"]);

/**
 * The other way round: a zero among lower-case letters is an o ("c0sts", "als0", "0rdered", "zo0"), as PP-OCR reads
 * o in some fonts. Only when every digit of the word is a 0 and the word is then lower case (a capital first letter
 * allowed), has no more zeros than letters, and is at least three letters or a common two-letter word: "x0", "h0",
 * "a00", "B0", "v0.5" stay.
 */
const fixZeroForO = (token: string): string | null => {
  const m = /^([("'“‘[]*)([A-Za-z0]+)([)"'”’\],.;:!?]*)$/.exec(token);
  const word = m?.[2];
  if (!m || !word || !word.includes("0") || !/[a-z]/.test(word)) return null;
  if (letterCount(word) < digitCount(word)) return null;
  const fixed = word.replace(/0/g, "o");
  if (!/^[A-Z]?[a-z]+$/.test(fixed)) return null;
  if (fixed.length < 3 && !SHORT_O_WORDS.has(fixed)) return null;
  return `${m[1]}${fixed}${m[3]}`;
};

/** The token with look-alikes made digits, or itself. `isbnContext`: the line names an ISBN. */
export const fixToken = (token: string, isbnContext = false): string => {
  const doi = fixDoi(token);
  if (doi) return doi;
  const word = fixZeroForO(token) ?? fixVersion(token) ?? fixBracket(token) ?? fixStrayQuestion(token);
  if (word) return word;
  if (![...token].some(isConfusable)) return token;
  const digits = digitCount(token);
  const candidate = asDigits(token);
  if (isbnContext && ISBN_SHAPE.test(candidate.replace(/x$/, "X")) && isValidIsbn(candidate.replace(/x$/, "X"))) {
    return candidate.replace(/x$/, "X");
  }
  // A word with no digit stays a word ("SOS", "lo", "Bob"); a number needs a digit of its own, and more digits
  // than letters (as many, with a % or separator), before its letters are taken for digits.
  const letters = letterCount(token);
  const marked = /[%$€£]|\d[-:,./]|[-:,./]\d/.test(token);
  if (digits === 0 || digits < letters || (digits === letters && !marked)) return token;
  return numericShape(candidate) ? candidate : token;
};

/** Every token of a line, with the line's own words as context (an ISBN label before its number). */
export const fixLine = (tokens: readonly string[]): string[] => {
  const isbn = tokens.some((t) => /^ISBN(?:-1[03])?:?$/i.test(t));
  return tokens.map((t) => fixToken(t, isbn));
};

/** The same on a line of text (spaces kept as single spaces). */
export const fixDigitsInText = (line: string): string => fixLine(line.split(" ")).join(" ");
