import {
  bulletPrefixLength,
  GLYPH_START_RE,
  hasLetters,
  isEmailAddress,
  isPageNumberText,
  isSentenceLike,
  listItemText,
} from "../classify-text";
import { isMonospaceFont } from "../monospace";
import { rowsToHtml, rowsToText } from "../table-html";
import type { ElementType } from "../types";
import { isHeadingLine, joinLines } from "./blocks";
import { BOLD_FONT, ITALIC_FONT, SMALL_CAPS_FONT } from "./font-names";
import { itemPrefixLength, spacedItemText } from "./item-lines";
import { carriesOwnFolio, carriesPrintedFolio, repeatedMarginKeys } from "./margins";
import { repeatedInPlace } from "./repeated-lines";
import { isCodeWord, monoShare, type DocStats } from "./stats";
import { rightToLeftRows, rightToLeftTable } from "./direction";
import { numberedListing } from "./numbered-listings";
import { unruledHtml } from "./unruled-tables";
import { maxOf, median, minOf, type Block, type Line, type PageText } from "./types";

/** Page margins where page numbers sit, as shares of the page height. */
const HEADER_BAND = 0.14;
const FOOTER_BAND = 0.88;
/**
 * A caption's label: "Figure 3:", "Table A4-12.", a label alone ("Table 1"), or one followed by a capital ("Exhibit 9
 * Characteristics of …"), capitalised or in capitals; "Table 2 shows …" is a sentence.
 */
const CAPTION_RE =
  /^(?:[Ff]ig(?:ure|\.)|FIG(?:URE|\.)|[Tt]ab(?:le|\.)|TAB(?:LE|\.)|[Cc]hart|CHART|[Ee]xhibit|EXHIBIT)[ \t]*[A-Z]?\d{1,4}(?:[.-]\d{1,4})*[a-z]?(?:[ \t]*(?:[.:|–—-](?!\d)|$)|[ \t]+(?=\p{Lu}))/u;

/**
 * A listing's lines with their indentation: in a fixed-pitch font, the distance from the listing's left edge in
 * character widths is the number of leading spaces the author typed.
 */
const listingText = (lines: Line[]): string => {
  const runs = lines
    .flatMap((l) => l.segments.flatMap((s) => s.runs))
    .filter((r) => r.mono && r.text.trim().length >= 4);
  const charWidth = median(runs.map((r) => (r.right - r.left) / r.text.trim().length));
  const left = minOf(lines.map((l) => l.left));
  const offsets = lines.map((l) => (charWidth > 0 ? (l.left - left) / charWidth : 0));
  // Typed indentation falls on whole characters, in steps of two or more; lines centred in a fixed-pitch font (an
  // author block) need not.
  const typed = offsets.every((o) => Math.abs(o - Math.round(o)) <= 0.2 && Math.round(o) % 2 === 0);
  return lines.map((l, i) => (typed ? " ".repeat(Math.min(40, Math.round(offsets[i] ?? 0))) : "") + l.text).join("\n");
};

/**
 * Two lines centred on one axis, the second set in from the first's left edge: a title wrapped in the middle of the
 * page ("159. And It Came to Pass in the Course of Those Many" over "Days"). A list item's wrapped lines start at
 * one left edge (or the second at its text's indent), not centred under the first.
 */
const centredPair = (lines: readonly Line[]): boolean => {
  const [a, b] = lines;
  if (!a || !b || lines.length !== 2) return false;
  const size = Math.max(a.fontSize, b.fontSize);
  return Math.abs(a.left + a.right - b.left - b.right) / 2 <= 0.5 * size && b.left - a.left >= 2 * size;
};

/**
 * "B. SLEEP RITUALS", "II. FINDINGS", "1. Introduction" at 12 pt over 11: one line (or a centred pair) numbered like
 * a list item but set as a heading (a heading font, and in capitals or larger than the body) is a section heading.
 * Bold items of a list in sentence case at the body's size stay items. Capitals are judged on words of two letters or more: a formula's
 * variables ("6. MORE ON MATH: u · w = 0") keep their case, and so do words in a typewriter font.
 */

/**
 * "1. Introduction" in amsart's CMCSC10: one line numbered like a list item, every word in small capitals (which a PDF
 * maps to lower case, the number in the body's font), at the body's size or larger and set apart by space, is a
 * section heading, as one in capitals is.
 */
const isSmallCapsHeading = (block: Block, text: string, page: PageText, stats: DocStats): boolean => {
  const [line] = block.lines;
  if (!line || block.lines.length !== 1 || text.length > 80 || /[.,;:]$/.test(text)) return false;
  const runs = line.segments.flatMap((s) => s.runs).filter((r) => /\p{L}/u.test(r.text));
  return (
    runs.length > 0 &&
    line.fontSize >= stats.bodySize * 0.95 &&
    runs.every((r) => SMALL_CAPS_FONT.test(r.fontName)) &&
    spacedApart(block, page, stats)
  );
};
const isLetteredHeading = (block: Block, text: string, stats: DocStats): boolean => {
  const [line] = block.lines;
  const centred = centredPair(block.lines);
  if (!line || !(block.lines.length === 1 || centred) || text.length > (centred ? 160 : 80)) return false;
  if (!block.lines.every((l) => isHeadingLine(l, stats)) || GLYPH_START_RE.test(text)) return false;
  // A command or file named in a typewriter font keeps its own case ("5. REFERENCE FORMATTING WITH asmeconf.bst").
  const runs = block.lines
    .flatMap((l) => l.segments.flatMap((s) => s.runs))
    .filter((r) => r.fontName === line.fontName || !isCodeWord(r));
  const prose = runs.map((r) => r.text).join(" ");
  const words = (prose.slice(bulletPrefixLength(prose)).match(/\p{L}{2,}/gu) ?? []).join(" ");
  return line.fontSize >= stats.bodySize * 1.08 || (/\p{Lu}/u.test(words) && !/\p{Ll}/u.test(words));
};

/**
 * "2.1 Method", "1.1.1 Scope": a line standing alone, numbered with a section's dotted number and starting with a
 * capital, short and without a sentence's end or a contents entry's dot leaders, is a section heading even in the
 * body's font and size.
 */
const isNumberedHeading = (block: Block, text: string, page: PageText, stats: DocStats): boolean =>
  block.lines.length === 1 &&
  text.length <= 80 &&
  /^\d{1,2}(?:\.\d{1,2})+\.?[ \t]+\p{Lu}/u.test(text) &&
  hasLetters(text.replace(/^[\d. \t]+/, "")) &&
  !/[.,;:]$/.test(text) &&
  !/(?:\.[ \t]?){3}/.test(text) &&
  spacedApart(block, page, stats);

/**
 * The names of a document's standard parts ("References", "Acknowledgments", "Appendix B", "7 Conclusions"): such a
 * name alone on its line and set apart by space heads that part even in the body's font and size, as many papers and
 * reports set their back matter. A name followed by more words or a sentence's end is text.
 */
const PART_NAME_RE =
  /^(?:(?:\d{1,2}|[IVX]{1,4})\.?[ \t]+)?(?:abstract|summary|introduction|conclusions?|acknowledge?ments?|references|bibliography|(?:works|literature)[ \t]+cited|appendix(?:[ \t]+[A-Z\d]{1,2})?|appendices|glossary|(?:end)?notes|(?:table[ \t]+of[ \t]+)?contents|index|preface|foreword)$/i;

const isPartName = (block: Block, text: string, page: PageText, stats: DocStats): boolean =>
  block.lines.length === 1 && PART_NAME_RE.test(text.trim()) && spacedApart(block, page, stats);

/**
 * A heading in the body's font is set off by space above or below it; a line at the text's own line pitch on both
 * sides (an entry of a contents list wrapped onto the next line) is not.
 */
const spacedApart = (block: Block, page: PageText, stats: DocStats): boolean => {
  const [line] = block.lines;
  if (!line) return false;
  const pitch = stats.pitch(line.fontSize);
  const near = page.runs.filter(
    (r) => r.right > block.left && r.left < block.right && Math.abs(r.baseline - line.baseline) > 0.5 * line.fontSize,
  );
  const above = minOf(near.filter((r) => r.baseline < line.baseline).map((r) => line.baseline - r.baseline));
  const below = minOf(near.filter((r) => r.baseline > line.baseline).map((r) => r.baseline - line.baseline));
  return Math.max(above, below) > 1.4 * pitch;
};

/**
 * A line told from the body only by its slant (italic, not bold, at about the body's size) is emphasis as often as a
 * heading: a label over a table's group ("Roman letters"), a byline, a quotation. It heads what follows only alone and
 * set apart by space, as a heading of its own level is.
 */
const slantedOnly = (block: Block, page: PageText, stats: DocStats): boolean =>
  block.lines.every(
    (l) => ITALIC_FONT.test(l.fontName) && !BOLD_FONT.test(l.fontName) && l.fontSize < stats.bodySize * 1.08,
  ) && !(block.lines.length === 1 && spacedApart(block, page, stats));

/**
 * A standfirst under a page's title, set in italics and larger than the body ("Work on the 140-year-old sea defence
 * will start in May, but traders fear a summer of closures"): a line or two wholly in italics, not bold, of twelve
 * words or more in sentence case (most words of four letters or more start in lower case) is a sentence without its
 * full stop, not a heading. A heading set so long in italics is in title case ("The Effects of Sleep on Memory in
 * Older Adults …").
 */
const isStandfirst = (block: Block, text: string): boolean => {
  const runs = block.lines.flatMap((l) => l.segments.flatMap((s) => s.runs)).filter((r) => hasLetters(r.text));
  const words = text.trim().split(/\s+/);
  const long = words.slice(1).filter((w) => /^\p{L}{4,}/u.test(w));
  return (
    runs.length > 0 &&
    runs.every((r) => ITALIC_FONT.test(r.fontName) && !BOLD_FONT.test(r.fontName)) &&
    words.length >= 12 &&
    long.filter((w) => /^\p{Ll}/u.test(w)).length >= 0.7 * long.length
  );
};

/**
 * What a heading's words look like: at least one word of two letters or more, letter-spaced or not ("C H A P T E R"),
 * or a lone letter (an index's "A"), and no web address. A formula set apart ("x + y", "∂t") and a line giving a site
 * or a link (a brochure's "PDF Association · www.pdfa.org", a slide's "More info: https://…") are no headings,
 * whatever their font. Nor is a line that opens with a symbol (a bullet glyph such as "█", "©"), though an emoji
 * may open a heading ("🚀 Getting started"), nor one word of five characters or more with letters and digits side
 * by side: a code or number of the document ("IMECE2025-XXXX", "ISO9001"; "COVID-19" stays a heading). Nor is a
 * table's or figure's source or note ("Source: LSA, 1998", "Note: in euros"); a lone "NOTES:" may head a section.
 * Nor a line with two or more footnote marks: a paper's authors or affiliations ("A. Author ∗, B. Author †",
 * "Facebook AI † University of Washington"); a heading carries one mark at most ("§§ 1–3" is no such mark). Nor a
 * manual's admonition label alone on its line ("WARNING", "Note:", "Tip"): it opens a notice, not a section. Nor
 * three fields or more parted by middle dots: a recipe's or a page's details line ("Serves 4 · Preparation 20 minutes
 * · Cooking 1 hour"), a byline.
 */
const readsAsHeading = (text: string): boolean =>
  (text.match(/\s·\s/gu) ?? []).length < 2 &&
  !/^(?:note|warning|caution|tip|important|danger|attention|hint)[ \t]*[:!]?$/i.test(text.trim()) &&
  (text.match(/[*∗†‡]/gu) ?? []).length < 2 &&
  !/^(?:sources?|notes?)[ \t]*:[ \t]*\S/i.test(text.trim()) &&
  (/\p{L}{2}|\p{L}[ \t]\p{L}[ \t]\p{L}/u.test(text) || /^\p{L}$/u.test(text.trim())) &&
  !/(?:https?:\/\/|\bwww\.)\S/i.test(text) &&
  !/^[\p{So}\p{Sm}](?<!\p{Emoji_Presentation})/u.test(text.trim()) &&
  !/^(?=\S*(?:\p{L}\d|\d\p{L}))\S{5,}$/u.test(text.trim());

/**
 * Three or more short lines at about the body's size, one of them broken before a word that would have fitted on it
 * (within the widest line): lines set one by one, such as a chapter opening's list of its sections ("An Overview of
 * Maturation and Growth" / "Development of the Brain" / "Motor Development"), not one heading wrapped.
 */
const setLineByLine = (block: Block, page: PageText, stats: DocStats): boolean => {
  const { lines } = block;
  if (lines.length < 3 || maxOf(lines.map((l) => l.fontSize)) > stats.bodySize * 1.08) return false;
  if (continuesLinesAbove(block, page, stats)) return true;
  const widest = maxOf(lines.map((l) => l.right - l.left));
  return lines.slice(0, -1).some((line, i) => {
    const next = lines[i + 1];
    const word = next?.text.trim().split(/\s+/)[0] ?? "";
    if (!next || !word) return false;
    const charWidth = (next.right - next.left) / next.text.length;
    return line.right - line.left + charWidth * (word.length + 1) < widest - charWidth;
  });
};

/**
 * Lines in the block's font and size start at its left edge a line or two above it, with other text between (a
 * chapter opening's list of sections, interrupted by a boxed feature's line in a smaller type): the block goes on
 * with those lines, set one by one like them.
 */
const continuesLinesAbove = (block: Block, page: PageText, stats: DocStats): boolean => {
  const [first] = block.lines;
  if (!first) return false;
  const reach = 2.5 * stats.pitch(first.fontSize);
  return page.runs.some(
    (r) =>
      r.fontName === first.fontName &&
      Math.abs(r.fontSize - first.fontSize) <= 0.04 * first.fontSize &&
      Math.abs(r.left - first.left) <= 1 &&
      r.baseline < first.baseline - first.fontSize &&
      first.baseline - r.baseline <= reach,
  );
};

/**
 * Every line of the block looks like a heading's, or goes on with the heading line above it in its font and size: a
 * heading wrapped onto a second line that starts in lower case ("1.1 Data collected from the" / "agencies").
 */
const headingLines = (block: Block, stats: DocStats): boolean => {
  const [first] = block.lines;
  if (!first || !isHeadingLine(first, stats)) return false;
  return block.lines.every(
    (l, i) =>
      isHeadingLine(l, stats) ||
      (i > 0 &&
        l.fontName === first.fontName &&
        Math.abs(l.fontSize - first.fontSize) <= 0.04 * first.fontSize &&
        !/-$/.test(block.lines[i - 1]?.text ?? "")),
  );
};

/**
 * "II. RELATED WORK", "A. Prior work": a journal's section headings in the body's size and weight, a Roman numeral
 * before capitals (small capitals, often centred) or a capital letter before words all in italics, each alone on its
 * line and set apart by space. A list's items numbered so are set neither in capitals nor wholly in italics.
 */
const isJournalHeading = (block: Block, text: string, page: PageText, stats: DocStats): boolean => {
  const [line] = block.lines;
  if (!line || block.lines.length !== 1 || text.length > 80 || /[.,;:]$/.test(text)) return false;
  const words = (text.replace(/^\S+[ \t]+/, "").match(/\p{L}{2,}/gu) ?? []).join(" ");
  const capitals = /^[IVX]{1,4}\.[ \t]+\p{Lu}/u.test(text) && /\p{Lu}/u.test(words) && !/\p{Ll}/u.test(words);
  const slanted =
    /^[A-H]\.[ \t]+\p{Lu}/u.test(text) &&
    line.segments.flatMap((s) => s.runs).every((r) => ITALIC_FONT.test(r.fontName) && !BOLD_FONT.test(r.fontName));
  return (capitals || slanted) && spacedApart(block, page, stats);
};

/**
 * A line of its own wholly in a typewriter font, in a text set in another: a one-line listing (a command to type, a
 * listing's first line left at a page's foot). A numbered or bulleted line stays an item, and a document set in a
 * typewriter font throughout has no listings to tell apart this way. A line set larger than the body is a heading in
 * a typewriter font (a command reference's "7.1 start"): commands to type are set at the body's size or smaller.
 */
const isCommandLine = (block: Block, text: string, stats: DocStats): boolean =>
  block.lines.length === 1 &&
  monoShare(block.lines) >= 0.95 &&
  maxOf(block.lines.map((l) => l.fontSize)) <= stats.bodySize * 1.1 &&
  !isMonospaceFont(stats.bodyFont) &&
  /\S\s+\S/.test(text) &&
  itemPrefixLength(text) === 0;

export type Classified = { type: ElementType; text: string; html?: string; metadata?: Record<string, unknown> };

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
    const listing = numberedListing(block);
    if (listing) return { type: "CodeSnippet", text: listing };
    const rows = rightToLeftRows(block.rows);
    const table = block.table && rightToLeftTable(block.table);
    const text = rowsToText(rows);
    const html = table ? unruledHtml(table) : rowsToHtml({ rows, headerRows: 1 });
    if (!text) return null;
    if (!table) return { type: "Table", text, html };
    const metadata = { table_rows: table.rows, table_columns: table.cols, table_source: "text-positions" };
    return { type: "Table", text, html, metadata: table.kind ? { ...metadata, table_kind: table.kind } : metadata };
  }
  const text = joinLines(block.lines);
  if (!text) return null;
  const inTop = block.bottom <= page.height * HEADER_BAND;
  const inBottom = block.top >= page.height * FOOTER_BAND;
  const keys = repeatedMarginKeys(block, page, repeated);
  const fontSize = maxOf(block.lines.map((l) => l.fontSize));

  if ((inTop || inBottom) && isPageNumberText(text)) return { type: "PageNumber", text };
  // A line in a margin that ends with this page's own number is its folio or running head, seen once or not: the
  // first pages of a LaTeX paper set the folio a little above the foot band and the running head only from page 2.
  const folio = fontSize <= stats.bodySize * 1.15 ? carriesOwnFolio(block, page) : null;
  if (folio === "bare") return { type: "PageNumber", text };
  if (folio) return { type: folio === "top" ? "Header" : "Footer", text };
  const printed = fontSize <= stats.bodySize * 1.5 ? carriesPrintedFolio(block, page) : null;
  if (printed) return { type: printed === "top" ? "Header" : "Footer", text };
  // Running heads and feet are only what repeats across pages in the margins, and a line set larger than the body
  // only when its words repeat unchanged (a title on the first page, "Chapter 3" are headings): text typed Header
  // or Footer is left out of the index, and a line seen once, at the top of one page, is as likely the document's
  // title or first line.
  const unchanged = keys.some((k) => k.startsWith("same:"));
  if (keys.length > 0 && (fontSize <= stats.bodySize * 1.15 || unchanged)) {
    return { type: keys.some((k) => k.split(":")[1] === "top") ? "Header" : "Footer", text };
  }
  // The same lines at the same place on most pages, however large and wherever on the page (a slide's presenter).
  const placed = repeatedInPlace(block, page, repeated);
  if (placed) return { type: placed === "top" ? "Header" : "Footer", text };
  // Listings keep their line breaks: indentation and line order are the content.
  if (block.lines.length >= 2 && monoShare(block.lines) >= 0.8) {
    return { type: "CodeSnippet", text: listingText(block.lines) };
  }
  if (isCommandLine(block, text, stats)) return { type: "CodeSnippet", text };
  if (block.item) return { type: "ListItem", text };
  const journal = isJournalHeading(block, text, page, stats) || isSmallCapsHeading(block, text, page, stats);
  if (itemPrefixLength(text) > 0 && !isLetteredHeading(block, text, stats) && !journal) {
    const item = listItemText(spacedItemText(text));
    // Some books mark a caption with a glyph ("■ Figure 5.1 Gain in height …"): it stays a caption.
    if (item !== text.trim() && CAPTION_RE.test(item)) return { type: "FigureCaption", text: item };
    return { type: "ListItem", text: item };
  }
  if (CAPTION_RE.test(text)) return { type: "FigureCaption", text };
  const heading =
    block.lines.length <= 3 &&
    text.length <= 200 &&
    hasLetters(text) &&
    !/[.,;]$/.test(text) &&
    headingLines(block, stats) &&
    // A heading is one phrase, a number apart at most: a line of three or more worded cells spaced apart (a table's
    // header row left alone at a page's foot, its rows on the next page) is no heading, however bold.
    block.lines.every((l) => l.segments.filter((s) => hasLetters(s.text)).length < 3) &&
    !setLineByLine(block, page, stats) &&
    !slantedOnly(block, page, stats) &&
    !isStandfirst(block, text);
  const named = isNumberedHeading(block, text, page, stats) || isPartName(block, text, page, stats) || journal;
  // A lone letter four times the body's size or more is a figure's lettering, not an index's letter heading.
  const glyph = /^\p{L}$/u.test(text) && fontSize >= 4 * stats.bodySize;
  if ((heading || named) && readsAsHeading(text) && !glyph) return { type: "Title", text };
  if (isEmailAddress(text)) return { type: "EmailAddress", text };
  if (isSentenceLike(text)) return { type: "NarrativeText", text };
  return { type: "UncategorizedText", text };
};
