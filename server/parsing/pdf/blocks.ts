import { hasLetters, hasTerminalPunctuation } from "../classify-text";
import { fontShare, monoShare, type DocStats } from "./stats";
import { median, union, type Block, type Line } from "./types";
import { findContents } from "./contents";
import { BOLD_FONT } from "./font-names";
import { joinsWithoutSpace } from "./caseless";
import { opensFieldGroup } from "./forms";
import { bulletsSideBySide } from "./bullet-rows";
import { splitSideCaptions } from "./side-captions";
import { isTotalBelow, standsApartAbove } from "./table-edges";
import {
  DOTTED_ITEM_RE,
  itemPrefixLength,
  itemTextLeft,
  joinItemWraps,
  leavesHangingItem,
  outdentedAfterEnd,
} from "./item-lines";
import { joinTermsOnOwnLines, markDescriptionItems } from "./description-lists";
import { headsTermList, isTermList, termItems } from "./term-lists";
import { isJustifiedLine } from "./justified";
import { unruledRows, unruledTable } from "./unruled-tables";

/**
 * Lines of one region into blocks (paragraphs, headings, list items) and, where rows of cells line up, tables.
 */

const MIN_TABLE_ROWS = 3;

/** "1. ", "2.1 ", "3.1.2. " before a capital: a section's number. */
export const SECTION_NUMBER_RE = /^\d{1,2}(?:\.\d{1,2})*\.?[ \t]+(?=\p{Lu})/u;

/**
 * Some styles set section headings a little smaller than the body, in bold (ASME's 9 pt sans capitals over 10 pt
 * text): such a line counts as a heading when numbered as a section or in capitals, or a label of a few words that
 * opens with a capital and ends with a colon (ACM's "ACM Reference Format:" over the citation set in its size), not a
 * bold phrase of any kind.
 */
const numberedOrCapitals = (text: string): boolean => {
  if (SECTION_NUMBER_RE.test(text)) return true;
  if (/^\p{Lu}[^:]*:$/u.test(text.trim()) && text.trim().split(/\s+/).length <= 4) return true;
  const letters = text.replace(/[^\p{L}]/gu, "");
  return letters.length >= 4 && !/\p{Ll}/u.test(letters);
};

/**
 * A line's end that closes no sentence, or closes one short question alone on its line: FAQ-style headings ("Who can
 * apply?", "What did we find?") ask one. A short aside in brackets at the end closes no sentence: "Junior (under 16)",
 * "Results (preliminary)".
 */
const openOrAsks = (text: string): boolean =>
  !hasTerminalPunctuation(text.trim().replace(/(?<=\p{L})[ \t]+\([^().!?]{1,30}\)$/u, "")) ||
  /^[\p{Lu}\d][^?.!]{2,78}\?$/u.test(text.trim());

/** Larger than body text, or a short line wholly in another font (bold run-in headings such as "3.1 Methods"). */
export const isHeadingLine = (line: Line, stats: DocStats): boolean => {
  // A word broken at the line's end goes on below: a paragraph's line (an italic abstract's), not a heading.
  if (/\p{Ll}-$/u.test(line.text)) return false;
  if (line.fontSize >= stats.bodySize * 1.15 && line.text.length <= 200) return true;
  // A heading set barely larger than the body ("Heading Level 3" at 12 pt over 11 pt text): a short line that
  // starts like a heading and does not end like a sentence, nor lists names with commas (a paper's authors).
  if (
    line.fontSize >= stats.bodySize * 1.08 &&
    line.text.length <= 80 &&
    (line.text.match(/,/g) ?? []).length < 2 &&
    /^[\p{Lu}\d]/u.test(line.text) &&
    openOrAsks(line.text) &&
    !/[,;:]$/.test(line.text)
  ) {
    return true;
  }
  // One segment: a bold total row of a table set smaller than the body ("TOTAL   1,234") is no heading.
  const smallBold =
    line.fontSize >= stats.bodySize * 0.8 && BOLD_FONT.test(line.fontName) && line.segments.length === 1;
  return (
    line.fontName !== stats.bodyFont &&
    monoShare([line]) < 0.5 &&
    (line.fontSize >= stats.bodySize * 0.95 || (smallBold && numberedOrCapitals(line.text))) &&
    fontShare(line) >= 0.9 &&
    line.text.length <= 100 &&
    openOrAsks(line.text) &&
    // A sentence that ends inside the line ("… widely used. However, it is") makes it a paragraph's line.
    !/\p{Ll}{2}[.!?][ \t]+\p{Lu}/u.test(line.text) &&
    !/^\p{Ll}/u.test(line.text)
  );
};

const isCode = (line: Line) => monoShare([line]) >= 0.5 && hasLetters(line.text);

/**
 * Two lines at the body's size in one font that is neither the body's nor bold (an italic abstract), at the text's
 * pitch: one paragraph, though one of them, short of a sentence's end, looks like a heading line by its font.
 */
const inOneEmphasis = (prev: Line, next: Line, stats: DocStats): boolean =>
  prev.fontName === next.fontName &&
  prev.fontName !== stats.bodyFont &&
  !BOLD_FONT.test(prev.fontName) &&
  Math.max(prev.fontSize, next.fontSize) < stats.bodySize * 1.08 &&
  Math.abs(prev.fontSize - next.fontSize) <= 0.04 * prev.fontSize;

/**
 * A line in the same font and size that goes on in lower case under a line without a sentence's end continues its
 * sentence: one paragraph, though the line above looks like a heading by its size or weight (a bold finding wrapped
 * onto a line ending in a full stop, a paragraph set larger than a document's many table cells).
 */
const continuesSentence = (prev: Line, next: Line): boolean =>
  prev.fontName === next.fontName &&
  Math.abs(prev.fontSize - next.fontSize) <= 0.04 * prev.fontSize &&
  /^\p{Ll}/u.test(next.text) &&
  !hasTerminalPunctuation(prev.text) &&
  !/[:;]$/.test(prev.text.trim());

/** "3.1. New level" under the item "3. A third": the first of its sub-items, numbered from its own number. */
const subItemOf = (item: Line | undefined, next: Line): boolean => {
  const number = /^(\d{1,2})[.)][ \t]/.exec(item?.text ?? "")?.[1];
  return !!number && next.text.startsWith(`${number}.`) && DOTTED_ITEM_RE.test(next.text);
};

const startsNewBlock = (block: Line[], next: Line, stats: DocStats): boolean => {
  const prev = block[block.length - 1];
  if (!prev) return false;
  const box = union(block);
  const size = Math.max(prev.fontSize, next.fontSize);
  if (Math.abs(prev.fontSize - next.fontSize) > 0.12 * size) return true;
  const pitch = next.baseline - prev.baseline;
  // A listing's line of brackets alone ("});", "}") goes on in it: the listing's first line had letters.
  if ((isCode(prev) || (monoShare([prev]) >= 0.5 && block[0] && isCode(block[0]))) && isCode(next)) {
    // A listing's lines go on through its indentation, short lines and single blank lines; a wider gap ends it.
    return pitch <= 0 || pitch > 2.5 * stats.pitch(prev.fontSize) + 1 || next.right < box.left;
  }
  if (pitch <= 0 || pitch > 1.3 * stats.pitch(prev.fontSize) + 1) return true;
  if (itemPrefixLength(next.text) > 0) return true;
  // An item of a list numbered at several levels ("1.2 Configure …") opens a block of its own under another item or
  // a finished line; a paragraph's line that only wraps before a number ("see Section" / "3.2 …") goes on.
  const opened =
    DOTTED_ITEM_RE.test(block[0]?.text ?? "") || /[.:;!?]$/.test(prev.text.trim()) || subItemOf(block[0], next);
  if (DOTTED_ITEM_RE.test(next.text) && opened) return true;
  if (monoShare([prev]) >= 0.5 !== monoShare([next]) >= 0.5) return true;
  const prevHeading = isHeadingLine(prev, stats);
  if (
    prevHeading !== isHeadingLine(next, stats) &&
    !inOneEmphasis(prev, next, stats) &&
    !continuesSentence(prev, next)
  ) {
    return true;
  }
  // A heading's lines share one font and size: a heading line in another under it is the next heading or a
  // subheading, and so is a line under a heading wrapped onto a line of its own ("1.1 Data collected from the" /
  // "agencies") the paragraph under it.
  const [head] = block;
  const wrappedHeading =
    !!head &&
    isHeadingLine(head, stats) &&
    block.every((l) => l.fontName === head.fontName && Math.abs(l.fontSize - head.fontSize) <= 0.04 * head.fontSize);
  const changed = prev.fontName !== next.fontName || Math.abs(prev.fontSize - next.fontSize) > 0.04 * size;
  if ((prevHeading || wrappedHeading) && changed && !inOneEmphasis(prev, next, stats)) return true;
  if (next.right < box.left || next.left > box.right) return true;
  const em = next.fontSize;
  // A list item's wrapped lines sit under its text, right of its bullet: they go on with the item, however short
  // the line above (a ragged right edge is no paragraph end inside an item).
  // After a finished sentence, a line there may as well be a new paragraph's indented first line.
  const first = block[0];
  const open = !hasTerminalPunctuation(prev.text) && !prev.text.endsWith(":");
  if (first && open && itemPrefixLength(first.text) > 0 && Math.abs(next.left - itemTextLeft(first)) <= 0.6 * em) {
    return false;
  }
  // A line centred over a wider one (a centred heading "III. METHOD" over its section's first line) stands alone:
  // a paragraph's first line is indented on its left only.
  if (block.length === 1 && box.left - next.left > 4 * em && next.right - box.right > 4 * em) return true;
  if (first && (leavesHangingItem(block, next) || outdentedAfterEnd(block, next))) return true;
  const indent = next.left - box.left;
  const prevEnded = hasTerminalPunctuation(prev.text) || prev.right < box.right - 2 * em;
  // A first-line indent after a finished line is how most typeset text starts a paragraph.
  if (indent > 0.8 * em && indent < 6 * em && prevEnded) return true;
  // So is a short last line without any indent, once the block is more than one line.
  const short = prev.right < box.right - 0.3 * (box.right - box.left);
  return block.length >= 2 && short && hasTerminalPunctuation(prev.text);
};

const EQUATION_NUMBER = /^\(\d{1,3}[a-z]?\)$/;
const CAPTION_RE = /^(?:figure|fig\.|table|tab\.|chart|exhibit)\s*\d{1,4}[a-z]?\s*[.:|–-]/i;
/** A note under a table: its source, a note, an abbreviation explained ("GDP: Gross domestic product."). */
const NOTE_RE = /^(?:[Ss]ources?:?|[Nn]otes?:?|N\.B\.|\*|\(\*\)|[\p{Lu}\d-]{2,12}:)(?:\s|$)/u;

const tableBlock = (lines: Line[]): Block | null => {
  // Rows that each end in an equation number, "(3)", are numbered display equations.
  const numbered = lines.filter((l) => EQUATION_NUMBER.test(l.segments[l.segments.length - 1]?.text ?? ""));
  if (numbered.length >= lines.length - 1) return null;
  const table = unruledTable(lines);
  if (!table) return null;
  return { ...union(lines), lines, kind: "table", rows: unruledRows(table), table };
};

/**
 * A run's first and last lines that belong to the text around the table: a caption above or below it, a section
 * heading after it (set larger or in the heading font, or after a wider gap than the rows' spacing).
 */
const trimRun = (lines: Line[], start: number, end: number, stats: DocStats): [number, number] => {
  if (CAPTION_RE.test(lines[start]?.text ?? "")) {
    // The caption and its wrapped lines, up to the first row of cells.
    start++;
    while (start < end && (lines[start]?.segments.length ?? 0) < 2) start++;
  }
  if (standsApartAbove(lines.slice(start, end + 1))) start++;
  const pitches: number[] = [];
  for (let i = start + 1; i <= end; i++) pitches.push((lines[i]?.baseline ?? 0) - (lines[i - 1]?.baseline ?? 0));
  const pitch = [...pitches].sort((a, b) => a - b)[Math.floor(pitches.length / 2)] ?? 0;
  const bodySize = [...lines.slice(start, end + 1).map((l) => l.fontSize)].sort((a, b) => a - b)[
    Math.floor((end - start) / 2)
  ];
  const outside = (i: number) => {
    const line = lines[i];
    const above = lines[i - 1];
    if (!line || !above) return false;
    if (CAPTION_RE.test(line.text) || NOTE_RE.test(line.text)) return true;
    if (bodySize && line.fontSize > 1.12 * bodySize) return true;
    if (line.segments.length <= 2 && isHeadingLine(line, stats) && !isHeadingLine(above, stats)) return true;
    return pitch > 0 && line.baseline - above.baseline > 1.8 * pitch && line.segments.length <= 2;
  };
  while (end > start && outside(end)) end--;
  return [start, end];
};

/**
 * A section heading inside a run ends it: a line set larger than most of the run's lines, in a heading's style,
 * with at most its number apart ("1 Document structures" after a short table of contents, before a display
 * equation). A run never starts with one; the lines after it are another run, or text.
 */
const headingIn = (lines: Line[], start: number, end: number, stats: DocStats): number | null => {
  const size = median(lines.slice(start, end + 1).map((l) => l.fontSize));
  for (let i = start; i <= end; i++) {
    const line = lines[i];
    if (line && line.fontSize > 1.12 * size && line.segments.length <= 2 && isHeadingLine(line, stats)) return i;
  }
  return null;
};

/**
 * A line of running text under a table ends it: a segment of five or more words with lower-case letters, on a line
 * reaching more than two ems past both edges of the rows above it (the paragraph going on under a narrow table, beside
 * a margin note). A wrapped cell or a long last column stays within the rows' extent on at least one side.
 */
const proseAfter = (lines: Line[], start: number, end: number): number | null => {
  let left = Infinity;
  let right = -Infinity;
  for (let i = start; i <= end; i++) {
    const line = lines[i];
    if (!line) continue;
    const em = line.fontSize;
    const prose = line.segments.some((s) => s.text.split(/\s+/).length >= 5 && /\p{Ll}/u.test(s.text));
    const beyond = line.left < left - 2 * em && line.right > right + 2 * em;
    if (i - start >= MIN_TABLE_ROWS - 1 && prose && beyond) return i;
    left = Math.min(left, line.left);
    right = Math.max(right, line.right);
  }
  return null;
};

/**
 * A short line right above a run, set in from its left edge (a heading centred over some columns, "Precision" over
 * "P@1" and "P@5"), is the table's first header row; a line over a single cell, flush with it, is not. Close means
 * within the rows' spacing, the most common pitch of the run: a header wrapped over two lines is set tighter.
 */
const withHeadingAbove = (lines: Line[], start: number, end: number): number => {
  const above = lines[start - 1];
  const first = lines[start];
  const next = lines[start + 1];
  if (!above || !first || !next) return start;
  const pitches: number[] = [];
  for (let i = start + 1; i <= end; i++) pitches.push((lines[i]?.baseline ?? 0) - (lines[i - 1]?.baseline ?? 0));
  const pitch = Math.max(next.baseline - first.baseline, median(pitches));
  const close = first.baseline - above.baseline <= 1.3 * pitch + 1;
  const inset = above.left > first.left + 2 * first.fontSize && above.right <= first.right + first.fontSize;
  const short = above.segments.length <= 2 && above.text.length <= 40 && !CAPTION_RE.test(above.text);
  // Over one cell only and starting where it starts: text stacked over that column (an address's contact lines).
  const over = first.segments.filter((s) => Math.min(s.right, above.right) > Math.max(s.left, above.left));
  const stacked = over.length === 1 && Math.abs((over[0]?.left ?? 0) - above.left) <= 0.3 * first.fontSize;
  return close && inset && short && !stacked ? start - 1 : start;
};

const FIGURE_CAPTION_RE = /^(?:figure|fig\.|chart|graph|diagram|map)\s*\d{1,4}[a-z]?\b/i;

/**
 * Labels of a chart or a diagram line up like cells: a run whose nearest caption, within three lines above it or
 * right under it, is a figure's and not a table's is the figure's text, not a table.
 */
const isFigureText = (lines: Line[], first: number, last: number): boolean => {
  const pitch = (lines[first]?.fontSize ?? 10) * 2.5;
  for (let i = first - 1; i >= Math.max(0, first - 3); i--) {
    const text = lines[i]?.text ?? "";
    if (FIGURE_CAPTION_RE.test(text)) return true;
    if (CAPTION_RE.test(text)) return false;
  }
  const below = lines[last + 1];
  const end = lines[last];
  return !!below && !!end && FIGURE_CAPTION_RE.test(below.text) && below.baseline - end.baseline <= pitch;
};

/** A line as far from the line above and the line below as the two lines below it are apart (within a point). */
const atRowPitch = (lines: Line[], i: number): boolean => {
  const [above, line, below, next] = [lines[i - 1], lines[i], lines[i + 1], lines[i + 2]];
  if (!above || !line || !below || !next) return false;
  const pitch = next.baseline - below.baseline;
  const close = (gap: number) => gap > 0 && Math.abs(gap - pitch) <= 1;
  return pitch > 0 && close(line.baseline - above.baseline) && close(below.baseline - line.baseline);
};

/**
 * Runs of at least three consecutive rows with two or more cells each. One or two short single-cell rows between two
 * such rows (a row label, a group heading, a wrapped cell) stay inside the run.
 */
const tableRuns = (lines: Line[], stats: DocStats): { start: number; end: number; block: Block }[] => {
  // A justified line cut at its stretched spaces is one line of text, not a row of cells.
  const multi = (i: number) => {
    const line = lines[i];
    return (
      !!line &&
      line.segments.length >= 2 &&
      !isJustifiedLine(line, lines.slice(Math.max(0, i - 3), i).concat(lines.slice(i + 1, i + 4)))
    );
  };
  // A row label or a group heading alone on its line ("All randomly assigned (n = 4,667)", "3-Year-Old Cohort").
  // A longer one ("Number of features and tumors in different data platforms") right under the header line, flush
  // with it, set at the rows' own pitch and free of punctuation inside or at its end (not a line of prose).
  const bridge = (i: number, underHeader = false) => {
    const text = lines[i]?.text ?? "";
    const flush = Math.abs((lines[i]?.left ?? 0) - (lines[i - 1]?.left ?? 0)) <= 0.5 * (lines[i]?.fontSize ?? 0);
    const label = underHeader && flush && text.length <= 80 && !/[.,;:!?](?:\s|$)/.test(text) && atRowPitch(lines, i);
    return (
      (text.length <= 40 || label) &&
      !CAPTION_RE.test(text) &&
      !NOTE_RE.test(text) &&
      !opensFieldGroup(lines[i], lines[i - 1])
    );
  };
  const found: { start: number; end: number; block: Block }[] = [];
  let start = 0;
  while (start < lines.length) {
    if (!multi(start)) {
      start++;
      continue;
    }
    let end = start;
    while (end + 1 < lines.length) {
      if (multi(end + 1)) end++;
      else if (bridge(end + 1, end === start) && multi(end + 2)) end += 2;
      else if (bridge(end + 1) && bridge(end + 2) && multi(end + 3)) end += 3;
      else break;
    }
    if (isTotalBelow(lines.slice(start, end + 1), lines[end + 1])) end++;
    const heading = headingIn(lines, start, end, stats);
    if (heading === start) {
      start++;
      continue;
    }
    if (heading !== null) end = heading - 1;
    // The running text under the table and whatever the run held after it are text, not the start of another run.
    const prose = proseAfter(lines, start, end);
    const next = end + 1;
    if (prose !== null) end = prose - 1;
    const [first, last] = trimRun(lines, withHeadingAbove(lines, start, end), end, stats);
    if (last - first + 1 >= MIN_TABLE_ROWS && !isFigureText(lines, first, last)) {
      const block = tableBlock(lines.slice(first, last + 1));
      if (block) found.push({ start: first, end: last, block });
    }
    start = next;
  }
  return found;
};

export const buildBlocks = (regionLines: Line[], stats: DocStats): Block[] => {
  const lines = splitSideCaptions(regionLines);
  const blocks: Block[] = [];
  const contents = findContents(lines).map(({ start, end, table }) => {
    const block: Block = { ...union(lines.slice(start, end + 1)), lines: lines.slice(start, end + 1), kind: "table" };
    return { start, end, block: { ...block, rows: unruledRows(table), table } };
  });
  const inContents = (i: number) => contents.some((c) => i >= c.start && i <= c.end);
  const tables = [...contents, ...tableRuns(lines, stats).filter((t) => !inContents(t.start) && !inContents(t.end))];
  let current: Line[] = [];
  const flush = () => {
    if (current.length > 0) blocks.push({ ...union(current), lines: current, kind: "text" });
    current = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const table = tables.find((t) => t.start === i);
    if (table) {
      flush();
      const { block } = table;
      if (block.table && isTermList(block.table, block.lines)) {
        const items = termItems(block.lines);
        const above = blocks[blocks.length - 1];
        if (above && headsTermList(above, items)) blocks[blocks.length - 1] = { ...above, item: true };
        blocks.push(...items);
      } else blocks.push(block);
      i = table.end;
      continue;
    }
    const line = lines[i];
    if (!line) continue;
    for (const part of bulletsSideBySide(line)) {
      if (startsNewBlock(current, part, stats)) flush();
      current.push(part);
    }
  }
  flush();
  return markDescriptionItems(joinTermsOnOwnLines(joinItemWraps(blocks, stats), stats), stats);
};

/** A compound broken at one of its own hyphens ("end-to-" / "end"): a word already hyphenated is broken there only. */
const COMPOUND_END = /[\p{L}\p{N}]-[\p{L}\p{N}]+-$/u;

/**
 * Lines of a block as one string: a hyphen at a line end before a lower-case letter is a word broken in two, unless
 * the word is a compound that keeps it ("end-to-end"); Chinese and Japanese lines join with no space, as their words
 * have none between them.
 */
export const joinLines = (lines: Line[]): string => {
  let text = "";
  for (const line of lines) {
    const next = line.text.trim();
    if (!text) text = next;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(next) && !COMPOUND_END.test(text))
      text = text.slice(0, -1) + next;
    else if (text.endsWith("-") || text.endsWith("/") || joinsWithoutSpace(text, next)) text += next;
    else text += ` ${next}`;
  }
  return text;
};
