import { isSentenceLike } from "./classify-text";
import type { ElementType, ParsedElement } from "./types";

/**
 * Running heads and feet are what repeats across pages in the margins. Header and Footer are left out of the index,
 * so only sure ones may stay typed so: one seen on too few pages (a title, a first line, a one-page scan's top
 * line, a vision model's guess) is typed from its wording instead and stays searchable. Page numbers are ignored when
 * comparing ("Page 3", "Page 4" repeat; so do "Preface iii" and "Preface iv").
 */

const ROMAN_RE = /^m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$/;
const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };

const romanValue = (word: string): number | null => {
  const lower = word.toLowerCase();
  // One case throughout ("xiv", "XIV"), as page numbers are set; "Mix" is a word.
  if (!lower || (word !== lower && word !== word.toUpperCase()) || !ROMAN_RE.test(lower)) return null;
  let total = 0;
  for (let i = 0; i < lower.length; i++) {
    const value = ROMAN_VALUES[lower[i] ?? ""] ?? 0;
    total += value < (ROMAN_VALUES[lower[i + 1] ?? ""] ?? 0) ? -value : value;
  }
  return total;
};

/** A word that can be a page number ("27", "-27-", "iii", "(XIV)"), with its value and numbering. */
export const pageNumberValue = (word: string): { kind: "arabic" | "roman"; value: number } | null => {
  const bare = word.replace(/^[-–—([]+|[-–—)\].,:]+$/g, "");
  if (/^\d{1,4}$/.test(bare)) return { kind: "arabic", value: Number(bare) };
  const roman = romanValue(bare);
  return roman === null ? null : { kind: "roman", value: roman };
};

/**
 * Text with its page numbers masked, so running heads of different pages compare equal: digits become '#', and so
 * does a roman numeral at either end ("© ACME Corp. iii", "Preface xii").
 */
export const maskPageNumbers = (text: string): string => {
  const words = text.replace(/\d+/g, "#").replace(/\s+/g, " ").trim().split(" ");
  for (const i of new Set([0, words.length - 1])) {
    const word = words[i];
    if (word !== undefined && pageNumberValue(word)?.kind === "roman") words[i] = "#";
  }
  return words.join(" ").toLowerCase();
};

const furnitureKey = (type: ElementType, text: string) => `${type}:${maskPageNumbers(text)}`;

const isFurniture = (type: ElementType) => type === "Header" || type === "Footer";

/** Retypes, in place, the Header/Footer items (pages of them) that repeat on fewer than max(2, 30 %) of the pages. */
export const keepRepeatedFurniture = <T extends { type: ElementType; text: string }>(pages: readonly T[][]): void => {
  const counts = new Map<string, number>();
  for (const items of pages) {
    const keys = new Set(items.filter((c) => isFurniture(c.type)).map((c) => furnitureKey(c.type, c.text)));
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const needed = Math.max(2, Math.ceil(pages.length * 0.3));
  for (const items of pages) {
    for (const c of items) {
      if (isFurniture(c.type) && (counts.get(furnitureKey(c.type, c.text)) ?? 0) < needed) {
        c.type = isSentenceLike(c.text) ? "NarrativeText" : "UncategorizedText";
      }
    }
  }
};

/** The same for a document's elements in page order: a copy, with unsure Header/Footer retyped. */
export const withSureFurniture = (elements: readonly ParsedElement[]): ParsedElement[] => {
  const copies = elements.map((e) => ({ ...e }));
  const byPage = new Map<number | null, ParsedElement[]>();
  for (const e of copies) {
    const list = byPage.get(e.pageNumber);
    if (list) list.push(e);
    else byPage.set(e.pageNumber, [e]);
  }
  keepRepeatedFurniture([...byPage.values()]);
  return copies;
};
