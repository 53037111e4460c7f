import type { ParsedElement } from "../types";
import { fontSize, joinAcrossBreaks, lastPage } from "./break-joins";

/**
 * A code listing broken by a page break goes on at the top of the next page, where it reads as a listing of its own
 * whose indentation is measured from its own leftmost line: "        y = 2" over "    return y" loses the four
 * spaces the two lines share. A listing that is a page's last content element, followed after page furniture only by
 * one in the same font size that is the next page's first, is one listing: the second part's lines are appended with
 * the indentation of its left edge measured from the first part's (in the first part's character widths), and
 * `metadata.page_numbers` lists both pages.
 */

/** How far off a whole number of characters a typed indentation may fall, in character widths. */
const WHOLE_CHARS = 0.3;

/**
 * The spaces before the second part's lines: its left edge's distance from the first part's, in the first part's
 * character width (its box's width over its longest line, leading spaces included). An offset that is not a whole
 * number of characters, or a part set to the left of the first, adds none.
 */
const indentOf = (first: ParsedElement, rest: ParsedElement): string => {
  const [a, b] = [first.boundingBox, rest.boundingBox];
  const longest = Math.max(...first.text.split("\n").map((l) => l.trimEnd().length));
  if (!a || !b || longest <= 0) return "";
  const offset = (b.left - a.left) / (a.width / longest);
  const n = Math.round(offset);
  return n >= 1 && Math.abs(offset - n) <= WHOLE_CHARS ? " ".repeat(Math.min(40, n)) : "";
};

const goesOn = (listing: ParsedElement, next: ParsedElement): boolean =>
  listing.type === "CodeSnippet" &&
  next.type === "CodeSnippet" &&
  (next.pageNumber ?? 0) === lastPage(listing) + 1 &&
  fontSize(next) > 0 &&
  fontSize(next) === fontSize(listing);

const joined = (listing: ParsedElement, rest: ParsedElement): ParsedElement => {
  const indent = indentOf(listing, rest);
  const lines = rest.text.split("\n").map((l) => (l.trim() ? indent + l : l));
  const pages = (listing.metadata?.page_numbers as number[] | undefined) ?? [listing.pageNumber ?? 0];
  return {
    ...listing,
    text: `${listing.text}\n${lines.join("\n")}`,
    metadata: { ...listing.metadata, page_numbers: [...pages, rest.pageNumber ?? 0] },
  };
};

export const joinListingsAcrossPages = (elements: readonly ParsedElement[]): ParsedElement[] =>
  joinAcrossBreaks(elements, "CodeSnippet", goesOn, joined);
