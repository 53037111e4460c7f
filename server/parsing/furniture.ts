import { isSentenceLike } from "./classify-text";
import type { ElementType, ParsedElement } from "./types";

/**
 * Running heads and feet are what repeats across pages in the margins. Header and Footer are left out of the index,
 * so only sure ones may stay typed so: one seen on too few pages (a title, a first line, a one-page scan's top
 * line, a vision model's guess) is typed from its wording instead and stays searchable. Digits are ignored when
 * comparing ("Page 3", "Page 4" repeat).
 */

const furnitureKey = (type: ElementType, text: string) =>
  `${type}:${text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").trim()}`;

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
