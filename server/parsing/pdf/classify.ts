import {
  bulletPrefixLength,
  hasLetters,
  isEmailAddress,
  isPageNumberText,
  isSentenceLike,
  listItemText,
} from "../classify-text";
import { rowsToHtml, rowsToText } from "../table-html";
import type { ElementType } from "../types";
import { isHeadingLine, joinLines } from "./blocks";
import { monoShare, type DocStats } from "./stats";
import { maxOf, type Block, type PageText } from "./types";

/** Page margins where page numbers sit, as shares of the page height. */
const HEADER_BAND = 0.14;
const FOOTER_BAND = 0.88;
/** Wider bands for text that repeats across pages: a repeated line this close to the edge is a running head. */
const REPEAT_BAND = 0.2;

export type PageBlocks = { page: PageText; blocks: Block[] };

const repeatKey = (band: "top" | "bottom", text: string) =>
  `${band}:${text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").trim()}`;

const marginKey = (block: Block, page: PageText): string | null => {
  if (block.kind !== "text" || block.lines.length > 2) return null;
  const text = joinLines(block.lines);
  if (text.length > 150) return null;
  if (block.bottom <= page.height * REPEAT_BAND) return repeatKey("top", text);
  if (block.top >= page.height * (1 - REPEAT_BAND)) return repeatKey("bottom", text);
  return null;
};

/** Margin texts found on enough pages to be running headers or footers (page numbers folded to '#'). */
export const findRepeatedMargins = (pages: PageBlocks[]): Set<string> => {
  const counts = new Map<string, number>();
  for (const { page, blocks } of pages) {
    const keys = new Set(blocks.map((b) => marginKey(b, page)).filter((k): k is string => k !== null));
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const needed = pages.length <= 2 ? 2 : Math.max(3, Math.ceil(pages.length * 0.3));
  return new Set([...counts].filter(([, n]) => n >= needed).map(([key]) => key));
};

const CAPTION_RE = /^(?:figure|fig\.|table|tab\.|chart|exhibit)\s*\d{1,4}[a-z]?\s*[.:|–-]/i;

export type Classified = { type: ElementType; text: string; html?: string };

export const classifyBlock = ({
  block,
  page,
  stats,
  repeated,
}: {
  block: Block;
  page: PageText;
  stats: DocStats;
  repeated: Set<string>;
}): Classified | null => {
  if (block.kind === "table" && block.rows) {
    const text = rowsToText(block.rows);
    return text ? { type: "Table", text, html: rowsToHtml({ rows: block.rows, headerRows: 1 }) } : null;
  }
  const text = joinLines(block.lines);
  if (!text) return null;
  const inTop = block.bottom <= page.height * HEADER_BAND;
  const inBottom = block.top >= page.height * FOOTER_BAND;
  const key = marginKey(block, page);
  const fontSize = maxOf(block.lines.map((l) => l.fontSize));

  if ((inTop || inBottom) && isPageNumberText(text)) return { type: "PageNumber", text };
  // Running heads and feet are only what repeats across pages in the margins, and never a line set larger than
  // the body (a title on the first page, a chapter heading): text typed Header or Footer is left out of the index,
  // and a line seen once, at the top of one page, is as likely the document's title or first line.
  if (key && repeated.has(key) && fontSize <= stats.bodySize * 1.15) {
    return { type: key.startsWith("top:") ? "Header" : "Footer", text };
  }
  // Listings keep their line breaks: indentation and line order are the content.
  if (block.lines.length >= 2 && monoShare(block.lines) >= 0.8) {
    return { type: "CodeSnippet", text: block.lines.map((l) => l.text).join("\n") };
  }
  if (bulletPrefixLength(text) > 0) return { type: "ListItem", text: listItemText(text) };
  if (CAPTION_RE.test(text)) return { type: "FigureCaption", text };
  const heading =
    block.lines.length <= 3 &&
    text.length <= 200 &&
    hasLetters(text) &&
    !/[.,;]$/.test(text) &&
    block.lines.every((l) => isHeadingLine(l, stats));
  if (heading) return { type: "Title", text };
  if (isEmailAddress(text)) return { type: "EmailAddress", text };
  if (isSentenceLike(text)) return { type: "NarrativeText", text };
  return { type: "UncategorizedText", text };
};
