import { fixToken, isValidIsbn } from "./digits";

/**
 * Digit repairs that need a line's other tokens (digits.ts reads one token at a time): numbers OCR split at a space
 * ("4505- 9385 -0", "10.1145/ 3397271", "12.05. 2023", "$1,204, 330.75"), labels read with a look-alike ("lSBN",
 * "BBN", "IS BN", "DOl") and tokens of a row of figures ("lO" among numbers is 10). A line's tokens become groups:
 * consecutive tokens read as one (joined without a space), each group's text repaired.
 */

export type TokenGroup = { from: number; to: number; text: string };

/**
 * "ISBN" read with one letter wrong, missing or added ("lSBN", "ISBM"), or its "IS" read as one letter ("BBN"), with
 * an optional -10/-13 and colon. Only a label when a valid ISBN follows, so a near miss costs nothing.
 */
const isIsbnLabel = (token: string): boolean => {
  const m = /^([A-Za-z0-9|$]{3,5})(?:-1[03])?:?$/.exec(token);
  const word = m?.[1]?.toUpperCase();
  if (!word || word === "ISSN" || !/[A-Z]{2}/.test(word)) return false;
  const read = word.replace(/[1L|]/g, "I").replace(/[5$]/g, "S").replace(/8/g, "B");
  return editDistance(read, "ISBN") <= 1 || /^[A-Z]BN$/.test(read);
};

const editDistance = (a: string, b: string): number => {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost);
    }
    row = next;
  }
  return row[b.length] ?? 0;
};

/** An ISBN once its parts are joined: digits, hyphens and a final X only, and the check digit holds. */
const isbnOf = (parts: readonly string[]): string | null => {
  const joined = fixToken(parts.join(""), true);
  const bare = joined.replace(/[.,;:]$/, "");
  if (!/^\d[\d-]{8,15}[\dX]$/.test(bare) || bare.includes("--")) return null;
  return isValidIsbn(bare) ? joined : null;
};

/** Two neighbouring tokens that are one number split by OCR (each already repaired on its own). */
const continues = (left: string, right: string): boolean =>
  // A hyphen or slash that ends a number never ends a token in text: "2024-03-" "15", "233-" "245".
  (/\d[-/–]$/.test(left) && /^\d/.test(right)) ||
  // A DOI's prefix and slash, its suffix read apart.
  (/^(?:doi:|https?:\/\/(?:dx\.)?doi\.org\/)?10\.\d{4,9}\/$/i.test(left) && /^[\w(][^\s]*[\d.]/.test(right)) ||
  // A dotted date whose year came apart: "12.05." "2023".
  (/^\d{1,2}\.\d{1,2}\.$/.test(left) && /^\d{2,4}(?:[.,;:)]?)$/.test(right)) ||
  // Thousands groups that came apart after a separator: "$1,204," "330.75".
  (/^[-+(]?[$€£]?\d{1,3}(?:,\d{3})+,$/.test(left) && /^\d{3}(?:\.\d+)?%?[.,;:)]?$/.test(right));

/** A token is a figure: a number, date, range or the like once repaired. */
const isFigure = (token: string) => /^[-+(]?[$€£]?\d[\d,.\-/:%]*\)?[.,;:]?$/.test(token);

/**
 * A row of figures (a table row, a line of numbers): at least two figures and no word of three letters. Then a
 * token made only of look-alikes ("lO", "SO") is read as a number too, which a word elsewhere never is.
 */
const figureRow = (tokens: readonly string[]): boolean => {
  const figures = tokens.filter(isFigure).length;
  const word = (t: string) => /\p{L}{3}/u.test(t) && !/^[OolI|SBZ]+[.,]?$/.test(t);
  return figures >= 2 && figures * 2 >= tokens.length && !tokens.some(word);
};

const ALL_LOOK_ALIKES: Record<string, string> = { O: "0", o: "0", l: "1", I: "1", "|": "1", S: "5", B: "8", Z: "2" };

const inFigureRow = (token: string): string => {
  if (!/^[OolI|SBZ\d]{2,}[.,]?$/.test(token) || /^\d+[.,]?$/.test(token)) return token;
  const digits = token.replace(/[OolI|SBZ]/g, (c) => ALL_LOOK_ALIKES[c] ?? c);
  return /^\d+[.,]?$/.test(digits) ? digits : token;
};

/** Dashes read twice ("035—-AD", "202—-493": Tesseract reads a hyphen so) between a digit and a letter or digit. */
const DOUBLE_DASH = /(?<=\d)[-\u2010-\u2015]{2,}(?=[\p{L}\p{N}])|(?<=[\p{L}\p{N}])[-\u2010-\u2015]{2,}(?=\d)/gu;

/** A table's ruling read as a character: a bar or corner bracket at a number's edge, or between two cells' words. */
const RULE = "[|\u300c\u300d]";
const RULE_AT_EDGE = new RegExp(`^${RULE}(?=\\d)|(?<=\\d)${RULE}$`, "gu");
/** Between two words a bar is a ruling only beside a digit ("P(a|b)" keeps its bar); a corner bracket always is. */
const RULE_INSIDE =
  /(?<=\d)\|(?=[\p{L}\p{N}])|(?<=[\p{L}\p{N}])\|(?=\d)|(?<=[\p{L}\p{N}])[\u300c\u300d](?=[\p{L}\p{N}])/gu;

/**
 * One token with its look-alikes repaired; rulings dropped first ("247|" is 247, not 2471; "64」YES" is two cells,
 * read as "64 YES": the word keeps one box, its text has the space). A citation bracket read as a bar ("|38]") is digits.ts's.
 */
const fixOne = (token: string, isbn: boolean): string => {
  const dashed = token.replace(DOUBLE_DASH, "-");
  if (/[[\]]/.test(dashed)) return fixToken(dashed, isbn);
  const cleaned = dashed.replace(RULE_AT_EDGE, "").replace(RULE_INSIDE, " ");
  return cleaned
    .split(" ")
    .map((part) => fixToken(part, isbn))
    .join(" ");
};

/** The longest run from `start` (up to five tokens) that is one valid ISBN, as [end, text]. */
const isbnRun = (tokens: readonly string[], start: number): [number, string] | null => {
  // A token that is an ISBN on its own is not the start of a longer one (an ISBN-10 and a number after it).
  if (isbnOf([tokens[start] ?? ""])) return null;
  for (let end = Math.min(tokens.length - 1, start + 4); end > start; end--) {
    const isbn = isbnOf(tokens.slice(start, end + 1));
    if (isbn) return [end, isbn];
  }
  return null;
};

/** A line's tokens as groups, look-alikes and split numbers repaired. */
export const fixLineGroups = (tokens: readonly string[]): TokenGroup[] => {
  const labels = tokens.map((t, i) => isIsbnLabel(t) || (t === "IS" && tokens[i + 1] === "BN"));
  const isbn = labels.some(Boolean);
  const single = tokens.map((t) => fixOne(t, isbn));
  const fixed = figureRow(single) ? single.map(inFigureRow) : single;
  const groups: TokenGroup[] = [];
  for (let i = 0; i < fixed.length; i++) {
    const run = isbn ? isbnRun(tokens, i) : null;
    if (run) {
      groups.push({ from: i, to: run[0], text: run[1] });
      i = run[0];
      continue;
    }
    const last = groups[groups.length - 1];
    const text = fixed[i] ?? "";
    if (last && last.to === i - 1 && continues(last.text, text)) {
      last.to = i;
      last.text = fixToken(last.text + text, isbn);
    } else groups.push({ from: i, to: i, text });
  }
  return labelled(groups, tokens);
};

/** A label before a number it names, put right: "lSBN"/"BBN"/"IS BN" before a valid ISBN, "DOl" before a DOI. */
const labelled = (groups: TokenGroup[], tokens: readonly string[]): TokenGroup[] => {
  const out: TokenGroup[] = [];
  groups.forEach((g, k) => {
    const next = groups[k + 1]?.text ?? "";
    const nextIsIsbn = isbnOf([next]) !== null;
    const prev = out[out.length - 1];
    if (nextIsIsbn && g.text === "BN" && prev?.text === "IS" && prev.to === g.from - 1) {
      prev.to = g.to;
      prev.text = "ISBN";
      return;
    }
    if (nextIsIsbn && g.from === g.to && isIsbnLabel(tokens[g.from] ?? "")) {
      const suffix = /(?:-1[03])?:?$/.exec(g.text)?.[0] ?? "";
      out.push({ ...g, text: `ISBN${suffix}` });
      return;
    }
    if (/^D[O0][lI1|]:?$/.test(g.text) && /^10\.\d{4,9}\//.test(next)) {
      out.push({ ...g, text: g.text.replace(/^D[O0][lI1|]/, "DOI") });
      return;
    }
    out.push(g);
  });
  return out;
};
