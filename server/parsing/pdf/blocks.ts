import { bulletPrefixLength, hasLetters, hasTerminalPunctuation, isBulleted } from "../classify-text";
import { fontShare, monoShare, type DocStats } from "./stats";
import { union, type Block, type Line, type Segment } from "./types";

/**
 * Lines of one region into blocks (paragraphs, headings, list items) and, where rows of cells line up, tables.
 */

const MIN_TABLE_ROWS = 3;

/** Larger than body text, or a short line wholly in another font (bold run-in headings such as "3.1 Methods"). */
export const isHeadingLine = (line: Line, stats: DocStats): boolean => {
  if (line.fontSize >= stats.bodySize * 1.15 && line.text.length <= 200) return true;
  return (
    line.fontName !== stats.bodyFont &&
    monoShare([line]) < 0.5 &&
    line.fontSize >= stats.bodySize * 0.95 &&
    fontShare(line) >= 0.9 &&
    line.text.length <= 100 &&
    !hasTerminalPunctuation(line.text) &&
    !/^\p{Ll}/u.test(line.text)
  );
};

/**
 * Where the text of a list item's first line starts, after its bullet or number: the second run when the marker is a
 * run of its own, else the marker's characters at about half an em each.
 */
const itemTextLeft = (line: Line): number => {
  const runs = line.segments.flatMap((s) => s.runs);
  const [marker, text] = runs;
  if (marker && text && isBulleted(`${marker.text.trim()} x`)) return text.left;
  return line.left + 0.5 * line.fontSize * bulletPrefixLength(line.text);
};

const isCode = (line: Line) => monoShare([line]) >= 0.5 && hasLetters(line.text);

const startsNewBlock = (block: Line[], next: Line, stats: DocStats): boolean => {
  const prev = block[block.length - 1];
  if (!prev) return false;
  const box = union(block);
  const size = Math.max(prev.fontSize, next.fontSize);
  if (Math.abs(prev.fontSize - next.fontSize) > 0.12 * size) return true;
  const pitch = next.baseline - prev.baseline;
  if (isCode(prev) && isCode(next)) {
    // A listing's lines go on through its indentation, short lines and single blank lines; a wider gap ends it.
    return pitch <= 0 || pitch > 2.5 * stats.pitch(prev.fontSize) + 1 || next.right < box.left;
  }
  if (pitch <= 0 || pitch > 1.3 * stats.pitch(prev.fontSize) + 1) return true;
  if (isBulleted(next.text)) return true;
  if (monoShare([prev]) >= 0.5 !== monoShare([next]) >= 0.5) return true;
  if (isHeadingLine(prev, stats) !== isHeadingLine(next, stats)) return true;
  if (next.right < box.left || next.left > box.right) return true;
  const em = next.fontSize;
  // A list item's wrapped lines sit under its text, right of its bullet: they go on with the item, however short
  // the line above (a ragged right edge is no paragraph end inside an item).
  // After a finished sentence, a line there may as well be a new paragraph's indented first line.
  const first = block[0];
  const open = !hasTerminalPunctuation(prev.text) && !prev.text.endsWith(":");
  if (first && open && isBulleted(first.text) && Math.abs(next.left - itemTextLeft(first)) <= 0.6 * em) {
    return false;
  }
  const indent = next.left - box.left;
  const prevEnded = hasTerminalPunctuation(prev.text) || prev.right < box.right - 2 * em;
  // A first-line indent after a finished line is how most typeset text starts a paragraph.
  if (indent > 0.8 * em && indent < 6 * em && prevEnded) return true;
  // So is a short last line without any indent, once the block is more than one line.
  const short = prev.right < box.right - 0.3 * (box.right - box.left);
  return block.length >= 2 && short && hasTerminalPunctuation(prev.text);
};

type Interval = { left: number; right: number };

/**
 * Column intervals of a run of rows: the union of the cells' x-ranges in the rows with the most cells (body rows).
 * Header cells centred over several columns would otherwise merge those columns.
 */
const columnIntervals = (lines: Line[]): Interval[] => {
  const counts = lines.map((l) => l.segments.length).sort((a, b) => a - b);
  const typical = counts[Math.floor(counts.length / 2)] ?? 0;
  const spans = lines
    .filter((l) => l.segments.length >= typical)
    .flatMap((l) => l.segments.map((s) => ({ left: s.left, right: s.right })))
    .sort((a, b) => a.left - b.left);
  const merged: Interval[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.left <= last.right + 2) last.right = Math.max(last.right, span.right);
    else merged.push({ ...span });
  }
  return merged;
};

/** The interval a cell belongs to: the one it overlaps most (cells of header rows may straddle two). */
const intervalOf = (segment: Segment, intervals: Interval[]): number => {
  let best = 0;
  let bestOverlap = -Infinity;
  intervals.forEach((iv, i) => {
    const shared = Math.min(iv.right, segment.right) - Math.max(iv.left, segment.left);
    if (shared > bestOverlap) {
      bestOverlap = shared;
      best = i;
    }
  });
  return best;
};

const EQUATION_NUMBER = /^\(\d{1,3}[a-z]?\)$/;

const tableBlock = (lines: Line[]): Block | null => {
  const intervals = columnIntervals(lines);
  if (intervals.length < 2) return null;
  const segments = lines.flatMap((l) => l.segments);
  const meanLength = segments.reduce((n, s) => n + s.text.length, 0) / segments.length;
  // Two wide columns of long text are prose side by side (a missed gutter), not a table.
  if (intervals.length === 2 && meanLength > 40) return null;
  // Rows that each end in an equation number, "(3)", are numbered display equations.
  const numbered = lines.filter((l) => EQUATION_NUMBER.test(l.segments[l.segments.length - 1]?.text ?? ""));
  if (numbered.length >= lines.length - 1) return null;
  const rows = lines.map((line) => {
    const cells = intervals.map(() => [] as string[]);
    for (const s of line.segments) cells[intervalOf(s, intervals)]?.push(s.text);
    return cells.map((c) => c.join(" "));
  });
  return { ...union(lines), lines, kind: "table", rows };
};

/**
 * Runs of at least three consecutive rows with two or more cells each. A single-cell row between two such rows (a
 * row label, a wrapped cell) stays inside the run.
 */
const tableRuns = (lines: Line[]): { start: number; end: number; block: Block }[] => {
  const multi = (i: number) => (lines[i]?.segments.length ?? 0) >= 2;
  const found: { start: number; end: number; block: Block }[] = [];
  let start = 0;
  while (start < lines.length) {
    if (!multi(start)) {
      start++;
      continue;
    }
    let end = start;
    while (end + 1 < lines.length && (multi(end + 1) || (multi(end + 2) && (lines[end + 1]?.text.length ?? 0) <= 40)))
      end++;
    if (end - start + 1 >= MIN_TABLE_ROWS) {
      const block = tableBlock(lines.slice(start, end + 1));
      if (block) found.push({ start, end, block });
    }
    start = end + 1;
  }
  return found;
};

export const buildBlocks = (lines: Line[], stats: DocStats): Block[] => {
  const blocks: Block[] = [];
  const tables = tableRuns(lines);
  let current: Line[] = [];
  const flush = () => {
    if (current.length > 0) blocks.push({ ...union(current), lines: current, kind: "text" });
    current = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const table = tables.find((t) => t.start === i);
    if (table) {
      flush();
      blocks.push(table.block);
      i = table.end;
      continue;
    }
    const line = lines[i];
    if (!line) continue;
    if (startsNewBlock(current, line, stats)) flush();
    current.push(line);
  }
  flush();
  return blocks;
};

/** Lines of a block as one string: a hyphen at a line end before a lower-case letter is a word broken in two. */
export const joinLines = (lines: Line[]): string => {
  let text = "";
  for (const line of lines) {
    const next = line.text.trim();
    if (!text) text = next;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(next)) text = text.slice(0, -1) + next;
    else if (text.endsWith("-") || text.endsWith("/")) text += next;
    else text += ` ${next}`;
  }
  return text;
};
