import { maskPageNumbers, pageNumberValue } from "../furniture";
import { joinLines } from "./blocks";
import { placeKeys, placeNeeded } from "./repeated-lines";
import type { Block, Line, PageText } from "./types";

/**
 * Running heads and feet of a text layer: short text in the top or bottom fifth of pages that repeats across them.
 * Two kinds of repetition count. The text with its numbers masked ("Page 3 of 9", "© ACME iii") is the same on
 * enough pages; or the line carries a page number at its start or end that keeps in step with the page ("Chapter 3
 * Results 27", "Chapter 4 Methods 41", "iii" … "v" in front matter): the same number − page offset on three pages
 * (two in a two-page document), whatever the words around it, so a short chapter's own running head counts too.
 */

/** Wider bands for text that repeats across pages: a repeated line this close to the edge is a running head. */
const REPEAT_BAND = 0.2;

export type PageBlocks = { page: PageText; blocks: Block[] };

/**
 * The page-number value a margin line carries at its end, or at its start when it is a bare number there, and which
 * end it sits at: a running head keeps its folio at the same end, so "1 Introduction 1" (a contents line) on page 1
 * and the heading "2 Methods" on page 2 are not one running head in step with the page.
 */
const lineNumber = (text: string) => {
  const words = text.trim().split(/\s+/);
  // A number at both ends ("3 Methods 27") is read from the end, where page numbers usually sit. At the start only a
  // bare number counts: "2." or "2.1" there numbers a section.
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const first = words[0] ?? "";
  const atEnd = last !== undefined ? pageNumberValue(last) : null;
  if (atEnd) return { ...atEnd, end: "end" };
  const atStart = /^[\divxlcdm]+$/i.test(first) ? pageNumberValue(first) : null;
  return atStart ? { ...atStart, end: "start" } : null;
};

/**
 * The keys a margin block is known by (text with numbers masked, and its page-number offset), or none. A foot of up
 * to three lines counts (copyright, document code and page number, terms of use), and its page number may end any
 * of its lines.
 */
/**
 * The words before a dash or bar of a one-line running head that names the chapter: "User Guide — Chapter 2
 * Operation" changes with each chapter, and only its lead, the book's name, recurs on every page.
 */
const RUNNING_LEAD_RE = /^(.{3,60}?)\s+[—–|]\s+\S/u;
const runningLead = (block: Block, text: string): string | null =>
  block.lines.length === 1 ? (RUNNING_LEAD_RE.exec(text.trim())?.[1] ?? null) : null;

const marginKeys = (block: Block, page: PageText): string[] => {
  if (block.kind !== "text" || block.lines.length > 3) return [];
  const text = joinLines(block.lines);
  // Running heads are short: a first paragraph that differs from page to page only by its numbers ("Page 2
  // paragraph 1: …") is body text. Only a three-line foot may run a little longer.
  if (text.length > (block.lines.length === 3 ? 200 : 150)) return [];
  const band =
    block.bottom <= page.height * REPEAT_BAND ? "top" : block.top >= page.height * (1 - REPEAT_BAND) ? "bottom" : null;
  if (!band) return [];
  // The words themselves, numbers and all: a line set large that repeats unchanged is a running head (a slide
  // deck's conference line), where "Chapter 3" and "Chapter 4" opening two chapters are headings.
  const keys = [`text:${band}:${maskPageNumbers(text)}`, `same:${band}:${text}`];
  const lead = runningLead(block, text);
  if (lead) keys.push(`lead:${band}:${lead}`);
  const values = [text, ...(block.lines.length > 1 ? block.lines.map((l) => l.text) : [])].map(lineNumber);
  for (const value of values) {
    if (value) keys.push(`step:${band}:${value.end}:${value.kind}:${value.value - page.pageNumber}`);
  }
  return [...new Set(keys)];
};

/**
 * A line opening with this page's own number set a wide gap (a tab, a fill) from its words: a left-hand page's running
 * head ("24        Chapter 2. Methods"), seen once in a few pages since the right-hand pages carry another. A heading's
 * number sits about an em from its words.
 */
const FOLIO_GAP_EM = 3;
const opensWithFolioApart = (line: Line | undefined, pageNumber: number): boolean => {
  const [number, words] = line?.segments ?? [];
  if (!line || !number || !words || !/^\d{1,4}$/.test(number.text.trim())) return false;
  return Number(number.text.trim()) === pageNumber && words.left - number.right >= FOLIO_GAP_EM * line.fontSize;
};

/**
 * A one-line block at the very top or bottom of a page, in its top or bottom fifth, whose last word is this page's own
 * number: "bare" for the number alone (a folio), else the band of a running head that carries it ("3 CITATIONS 2" on
 * page 2). A number at the start counts only set far from the words (`opensWithFolioApart`), since "2 Methods"
 * heading page 2 is a section.
 */
export const carriesOwnFolio = (block: Block, page: PageText): "bare" | "top" | "bottom" | null => {
  if (block.kind !== "text" || block.lines.length !== 1) return null;
  const text = joinLines(block.lines).trim();
  if (text.length > 80) return null;
  const band =
    block.bottom <= page.height * REPEAT_BAND ? "top" : block.top >= page.height * (1 - REPEAT_BAND) ? "bottom" : null;
  const words = text.split(/\s+/);
  const last = pageNumberValue(words[words.length - 1] ?? "");
  const atEnd = last?.kind === "arabic" && last.value === page.pageNumber;
  if (!band || (!atEnd && !opensWithFolioApart(block.lines[0], page.pageNumber))) return null;
  // The page's first or last text, or it is a line of the body (a contents entry under its heading).
  const edge =
    band === "top" ? page.runs.some((r) => r.bottom <= block.top) : page.runs.some((r) => r.top >= block.bottom);
  if (edge) return null;
  return words.length === 1 ? (/^\d+$/.test(text) ? "bare" : null) : band;
};

/** A page number set apart from a running head's words: "454", "200", "A-42" (not a year). */
const FOLIO_RE = /^(?!(?:19|20)\d\d$)(?:\d{3,4}|[A-Z]-\d{1,4})$/;
const PAGE_OF_RE = /\bpage[ \t]+\d{1,4}(?:[ \t]+of[ \t]+\d{1,4})?\b/i;
/**
 * The date and time a browser prints a page at, opening or ending its running head: "12/7/26, 8:32 PM", a comma after
 * the date (a layout program's slug, "34524_ch05.indd 169 10/10/12 8:01 PM", has none and is no running head).
 */
const PRINT_STAMP = String.raw`\d{1,2}/\d{1,2}/\d{2,4},[ \t]+\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]*[AP]M)?`;
const PRINT_STAMP_RE = new RegExp(`^${PRINT_STAMP}[ \t]|[ \t]${PRINT_STAMP}$`, "i");

/**
 * A line whose first or last segment is a printed page number, a wide gap from its words ("454 … A. Author /
 * Journal", "Appendix B … 200"), that says "Page 3 of 9", or that a browser stamped with the time it printed the page
 * ("Annual Report 2023    12/7/26, 8:32 PM": a one-page print has no other page to repeat it). A number a word space
 * from its words is text: an address ("1600 Amphitheatre Parkway"), a title ("100 Days of Recovery").
 */
const showsFolio = (line: Line): boolean => {
  const texts = line.segments.map((s) => s.text.trim());
  if (texts.length >= 2 && (FOLIO_RE.test(texts[0] ?? "") || FOLIO_RE.test(texts.at(-1) ?? ""))) return true;
  return PAGE_OF_RE.test(line.text) || PRINT_STAMP_RE.test(line.text.trim());
};

/**
 * The page's first or last one or two lines, in its top or bottom fifth, carrying a page number of the printed book or report
 * it was cut from (a page taken out of it keeps its own folio, not this file's page number): a running head or foot.
 * A year is no folio ("Annual Report 2019").
 */
export const carriesPrintedFolio = (block: Block, page: PageText): "top" | "bottom" | null => {
  if (block.kind !== "text" || block.lines.length > 2) return null;
  const text = joinLines(block.lines).trim();
  // A label and a number alone may be a heading ("Form 1040", "Section 101"): a running head has more words.
  if (text.length > 100 || text.split(/\s+/).length < 3 || !block.lines.some(showsFolio)) return null;
  const band =
    block.bottom <= page.height * REPEAT_BAND ? "top" : block.top >= page.height * (1 - REPEAT_BAND) ? "bottom" : null;
  if (!band) return null;
  const edge =
    band === "top" ? page.runs.some((r) => r.bottom <= block.top) : page.runs.some((r) => r.top >= block.bottom);
  return edge ? null : band;
};

/** The page's first or last text: nothing above the block, or nothing below it. */
const atPageEdge = (block: Block, page: PageText): boolean =>
  !page.runs.some((r) => r.bottom <= block.top) || !page.runs.some((r) => r.top >= block.bottom);

/** In the set of repeated keys: only a page's first and last text can be running heads (a short document). */
const EDGE_ONLY = "edge-only";

/**
 * Margin keys found on enough pages to be running heads or feet. In a document of two pages, two is enough, and
 * two pages that open alike ("Section 1", then items "1. Item 1", "2. Item 2" near the top of both) would make
 * running heads of their body: there only the pages' first and last text count, where a running head sits.
 */
export const findRepeatedMargins = (pages: PageBlocks[]): Set<string> => {
  const counts = new Map<string, number>();
  const edgeOnly = pages.length <= 2;
  for (const { page, blocks } of pages) {
    const margin = (b: Block) => (!edgeOnly || atPageEdge(b, page) ? marginKeys(b, page) : []);
    const keys = new Set(blocks.flatMap((b) => [...margin(b), ...placeKeys(b)]));
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const needed = pages.length <= 2 ? 2 : Math.max(3, Math.ceil(pages.length * 0.3));
  // A number in step with the page on three pages is no coincidence, whatever the words; the same words on three
  // pages of many can be.
  const inStep = Math.min(3, Math.max(2, pages.length));
  const neededFor = (key: string) =>
    key.startsWith("step:") ? inStep : key.startsWith("place:") ? placeNeeded(pages.length) : needed;
  const found = [...counts].filter(([key, n]) => n >= neededFor(key)).map(([key]) => key);
  return new Set(edgeOnly ? [...found, EDGE_ONLY] : found);
};

/** The block's margin keys that repeat (none for a block inside a short document's page: see findRepeatedMargins). */
export const repeatedMarginKeys = (block: Block, page: PageText, repeated: ReadonlySet<string>): string[] =>
  repeated.has(EDGE_ONLY) && !atPageEdge(block, page) ? [] : marginKeys(block, page).filter((k) => repeated.has(k));
