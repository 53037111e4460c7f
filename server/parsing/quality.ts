import { adjacencyRelations, htmlGrid } from "./table-structure";
import type { ParsedElement } from "./types";

/**
 * Parse-quality measures shared by the quality bench and the tests that bound it: word and digit-token F1 (bags of
 * tokens), F1 of headings, list items and table cells (fuzzy one-to-one matching of strings), and reading order
 * (normalised indel similarity of the two token sequences, as opendataloader-bench scores it).
 */

/**
 * Word tokens: runs of letters and digits, but each Chinese or Japanese character alone. Those scripts put no space
 * between words, so as runs a whole clause was one token, and a line break that one side reads as a space and the
 * other (rightly) as nothing cost every word of both lines.
 */
export const tokens = (text: string): string[] =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .match(
      /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}])+/gu,
    ) ?? [];

/** Tokens that hold a digit, with the separators inside a number kept: "0.955", "1,234", "2015-11". */
export const digitTokens = (text: string): string[] =>
  (text.normalize("NFKC").match(/[\p{N}][\p{N}.,:/-]*[\p{N}]|[\p{N}]/gu) ?? []).map((t) => t.replace(/,/g, ""));

export type F1 = { precision: number; recall: number; f1: number; ours: number; theirs: number };

const f1Of = (common: number, ours: number, theirs: number): F1 => {
  if (ours === 0 && theirs === 0) return { precision: 1, recall: 1, f1: 1, ours, theirs };
  const precision = ours === 0 ? 0 : common / ours;
  const recall = theirs === 0 ? 0 : common / theirs;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, ours, theirs };
};

/** F1 of two multisets. */
export const bagF1 = (ours: readonly string[], theirs: readonly string[]): F1 => {
  const counts = new Map<string, number>();
  for (const t of theirs) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of ours) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      common++;
      counts.set(t, n - 1);
    }
  }
  return f1Of(common, ours.length, theirs.length);
};

const normalise = (text: string) => tokens(text).join(" ");

/** Token F1 of two short strings: how far "3.1 Layout Detection" matches "3.1 Layout detection models". */
const stringSimilarity = (a: string, b: string): number => bagF1(tokens(a), tokens(b)).f1;

/**
 * F1 of two lists of strings (headings, list items, table cells), each matched at most once. Exact matches (after
 * normalising case and punctuation) first, then the closest remaining one at or above `threshold`.
 */
export const stringsF1 = (ours: readonly string[], theirs: readonly string[], threshold = 0.8): F1 => {
  const a = ours.map(normalise).filter(Boolean);
  const b = theirs.map(normalise).filter(Boolean);
  const unmatched = new Map<string, number>();
  for (const t of b) unmatched.set(t, (unmatched.get(t) ?? 0) + 1);
  let common = 0;
  const rest: string[] = [];
  for (const s of a) {
    const n = unmatched.get(s) ?? 0;
    if (n > 0) {
      common++;
      unmatched.set(s, n - 1);
    } else rest.push(s);
  }
  const pool = [...unmatched].flatMap(([s, n]) => Array.from({ length: n }, () => s));
  // Fuzzy matching is quadratic; long lists (thousands of cells) match exactly only.
  if (rest.length * pool.length <= 4_000_000) {
    for (const s of rest) {
      let best = -1;
      let bestScore = threshold;
      pool.forEach((p, i) => {
        const score = stringSimilarity(s, p);
        if (score >= bestScore) {
          best = i;
          bestScore = score;
        }
      });
      if (best >= 0) {
        common++;
        pool.splice(best, 1);
      }
    }
  }
  return f1Of(common, a.length, b.length);
};

/**
 * Reading order: 1 − indel distance / (|a| + |b|) over word tokens, i.e. 2·LCS / (|a| + |b|). Words in a different
 * order count as missing on one side and extra on the other. Long texts are compared in windows of the reference.
 */
export const orderSimilarity = (ours: string, theirs: string, maxTokens = 6000): number => {
  const a = tokens(ours).slice(0, maxTokens);
  const b = tokens(theirs).slice(0, maxTokens);
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  // Classic LCS with two rows; words are interned to numbers first.
  const ids = new Map<string, number>();
  const id = (w: string) => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1);
  const x = a.map(id);
  const y = b.map(id);
  let prev = new Uint16Array(y.length + 1);
  let row = new Uint16Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      row[j] = x[i - 1] === y[j - 1] ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, row[j - 1] ?? 0);
    }
    [prev, row] = [row, prev];
  }
  return (2 * (prev[y.length] ?? 0)) / (x.length + y.length);
};

/** Cell texts of an HTML table (`<td>`/`<th>`), in document order. */
export const htmlCells = (html: string): string[] =>
  [...html.matchAll(/<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((m) =>
    (m[1] ?? "")
      .replace(/<br\s*\/?>/gi, " ")
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&")
      .replace(/\s+/g, " ")
      .trim(),
  );

/** What a parse says, in the shape the measures take. */
export type Extraction = {
  text: string;
  headings: string[];
  listItems: string[];
  tableCells: string[];
  /** Adjacency relations of the tables' cells (table-structure.ts). */
  tableRelations: string[];
  codeBlocks: string[];
  /** Running heads, feet and page numbers (Header, Footer, PageNumber). */
  furniture: string[];
};

const FURNITURE_TYPES = new Set(["Header", "Footer", "PageNumber"]);

export const extractionOf = (elements: readonly ParsedElement[]): Extraction => ({
  text: elements
    .filter((e) => e.type !== "Image")
    .map((e) => e.text)
    .join("\n"),
  headings: elements.filter((e) => e.type === "Title").map((e) => e.text),
  listItems: elements.filter((e) => e.type === "ListItem").map((e) => e.text),
  tableCells: elements
    .filter((e) => e.type === "Table")
    .flatMap((e) => htmlCells(e.html ?? ""))
    .filter(Boolean),
  tableRelations: elements.filter((e) => e.type === "Table").flatMap((e) => adjacencyRelations(htmlGrid(e.html ?? ""))),
  codeBlocks: elements.filter((e) => e.type === "CodeSnippet").map((e) => e.text),
  furniture: elements.filter((e) => FURNITURE_TYPES.has(e.type)).map((e) => e.text),
});

/** A reference: what a peer (or the document's own tags) says is there. Missing parts are not scored. */
export type Reference = {
  text?: string;
  /** Text whose order is the reading order (defaults to `text`). */
  orderText?: string;
  headings?: string[];
  listItems?: string[];
  tableCells?: string[];
  /** Adjacency relations of the reference tables' cells, for the structure score. */
  tableRelations?: string[];
  /** Code listings (a tagged PDF's `Code` elements). */
  codeBlocks?: string[];
  /** Page furniture: a tagged PDF's artifacts (running heads, feet, page numbers), a peer's Header/Footer/PageNumber. */
  furniture?: string[];
};

export type Scores = {
  words: number | null;
  digits: number | null;
  headings: number | null;
  lists: number | null;
  cells: number | null;
  /** Cell adjacency F1 (ICDAR 2013 table structure). */
  structure: number | null;
  order: number | null;
  /** Share of the reference's code listings found inside our CodeSnippet elements. */
  code: number | null;
  /** Share of our Header/Footer/PageNumber elements that are page furniture in the reference. */
  footers: number | null;
};

/** Share of `blocks` whose tokens are at least `share` inside `pool` (a bag): listings found, whatever their cut. */
export const blockRecall = (pool: readonly string[], blocks: readonly string[], share = 0.8): number => {
  const bag = new Set(pool.flatMap(tokens));
  const found = blocks.filter((b) => {
    const t = tokens(b);
    return t.length > 0 && t.filter((w) => bag.has(w)).length >= t.length * share;
  });
  return found.length / Math.max(1, blocks.filter((b) => tokens(b).length > 0).length);
};

/**
 * Footer precision: of the elements we typed as page furniture, the share whose words are all furniture words of the
 * reference (null when we typed none or the reference has no furniture to tell).
 */
export const furniturePrecision = (ours: readonly string[], theirs: readonly string[]): number | null => {
  const typed = ours.filter((t) => tokens(t).length > 0);
  if (!theirs.length || !typed.length) return null;
  return typed.filter((t) => blockRecall(theirs, [t], 1) === 1).length / typed.length;
};

export const scoreExtraction = (ours: Extraction, ref: Reference): Scores => {
  const theirDigits = ref.text !== undefined ? digitTokens(ref.text) : [];
  return {
    words: ref.text !== undefined ? bagF1(tokens(ours.text), tokens(ref.text)).f1 : null,
    digits: ref.text !== undefined && theirDigits.length > 0 ? bagF1(digitTokens(ours.text), theirDigits).f1 : null,
    headings: ref.headings?.length ? stringsF1(ours.headings, ref.headings).f1 : null,
    lists: ref.listItems?.length ? stringsF1(ours.listItems, ref.listItems).f1 : null,
    cells: ref.tableCells?.length ? stringsF1(ours.tableCells, ref.tableCells, 0.67).f1 : null,
    structure: ref.tableRelations?.length ? bagF1(ours.tableRelations, ref.tableRelations).f1 : null,
    order:
      (ref.orderText ?? ref.text) !== undefined ? orderSimilarity(ours.text, ref.orderText ?? ref.text ?? "") : null,
    code: ref.codeBlocks?.length ? blockRecall(ours.codeBlocks, ref.codeBlocks) : null,
    footers: furniturePrecision(ours.furniture, ref.furniture ?? []),
  };
};
