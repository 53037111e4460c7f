import { hasLetters } from "../classify-text";
import type { Block, PageText } from "./types";

/**
 * Lines repeated at the same place on most pages, wherever on the page: a presenter's name on every slide, a
 * template's side note. They are running furniture like a running head, though set above the foot band.
 */

/** Keys of a short text block's lines: where each sits (to the point) and its words. */
export const placeKeys = (block: Block): string[] => {
  if (block.kind !== "text" || block.lines.length > 3) return [];
  return block.lines
    .filter((l) => l.text.trim().length <= 80 && hasLetters(l.text))
    .map((l) => `place:${Math.round(l.baseline)}:${Math.round(l.left)}:${l.text.trim()}`);
};

/** A line at one place counts when it is there on half the pages or more, and on three at least. */
export const placeNeeded = (pages: number): number => Math.max(3, Math.ceil(pages / 2));

/**
 * The band of a block most of whose lines repeat in place ("top" above the page's middle, else "bottom"), or null:
 * a block cut differently on one page (its last line run into a footnote) still counts by its other lines.
 */
export const repeatedInPlace = (block: Block, page: PageText, repeated: ReadonlySet<string>) => {
  if (block.kind !== "text" || block.lines.length > 3) return null;
  const found = placeKeys(block).filter((k) => repeated.has(k)).length;
  if (found === 0 || found * 2 <= block.lines.length) return null;
  return (block.top + block.bottom) / 2 < page.height / 2 ? "top" : "bottom";
};
