import type { ElementType, ParsedElement } from "../types";
import { fontSize, joinAcrossBreaks, lastPage } from "./break-joins";

/**
 * A list item broken by a page or column break goes on at the top of the next page or column, where it reads as a
 * paragraph of its own. Text that opens in lower case after an item left unfinished (no sentence's end), with only
 * page furniture between them, across a break (another page or another column), is the rest of that item: it is
 * appended to the item, and `metadata.page_numbers` lists both pages when the break is a page's. Text that opens in
 * upper case ("PostgreSQL", "API") goes on too when it is set at the item's text indent, not at its marker's: two
 * lines or more each, both blocks reach their column's right edge, so the rest is narrower than the item by about the
 * marker's width. A paragraph after the list starts at the column's edge, as wide as the item or wider.
 */

const TEXT: ReadonlySet<ElementType> = new Set(["NarrativeText", "UncategorizedText"]);

const columnOf = (e: ParsedElement) => e.metadata?.column ?? null;

/** How much narrower than the item (in font sizes) the rest at its text indent is: a marker and its gap. */
const TEXT_INDENT_EM = { min: 0.5, max: 4 };
/** A block this many font sizes high holds two lines or more. */
const TWO_LINES_EM = 1.8;

const atTextIndent = (item: ParsedElement, next: ParsedElement): boolean => {
  const [a, b, size] = [item.boundingBox, next.boundingBox, fontSize(item)];
  if (!a || !b || !size || fontSize(next) !== size) return false;
  if (Math.min(a.height, b.height) < TWO_LINES_EM * size) return false;
  const inset = (a.width - b.width) / size;
  return inset >= TEXT_INDENT_EM.min && inset <= TEXT_INDENT_EM.max;
};

const goesOn = (item: ParsedElement, next: ParsedElement): boolean =>
  item.type === "ListItem" &&
  TEXT.has(next.type) &&
  !/[.!?:;]["”’)]?$/.test(item.text.trim()) &&
  (/^\p{Ll}/u.test(next.text.trim()) || atTextIndent(item, next)) &&
  ((next.pageNumber ?? 0) === lastPage(item) + 1 ||
    ((next.pageNumber ?? 0) === lastPage(item) && columnOf(next) !== columnOf(item)));

const joined = (item: ParsedElement, rest: ParsedElement): ParsedElement => {
  const head = item.text.trim();
  const text = /\p{L}-$/u.test(head) ? head.slice(0, -1) + rest.text.trim() : `${head} ${rest.text.trim()}`;
  if ((rest.pageNumber ?? 0) === lastPage(item)) return { ...item, text };
  const pages = (item.metadata?.page_numbers as number[] | undefined) ?? [item.pageNumber ?? 0];
  return { ...item, text, metadata: { ...item.metadata, page_numbers: [...pages, rest.pageNumber ?? 0] } };
};

export const joinItemsAcrossBreaks = (elements: readonly ParsedElement[]): ParsedElement[] =>
  joinAcrossBreaks(elements, "ListItem", goesOn, joined);
