import { union, type Line, type Segment } from "./types";

/** "Table 2" opening a line's first segment; a side caption needs no punctuation after the number. */
const SIDE_CAPTION_RE = /^(?:table|tab\.)\s*\d{1,4}[a-z]?(?:[\s.:|–-]|$)/i;
/** Lines looked at for the caption's wrapped lines, at most. */
const MAX_CAPTION_LINES = 12;

const lineOf = (line: Line, segments: Segment[]): Line => ({
  ...line,
  ...union(segments),
  segments,
  text: segments.map((s) => s.text).join(" "),
  fontSize: segments[0]?.fontSize ?? line.fontSize,
  fontName: segments[0]?.fontName ?? line.fontName,
});

/**
 * A table's caption set in a narrow column to its left (journals set "Table 2 Demographics of …" beside the table's
 * first rows): on the line where it starts, two or more segments follow it, more than an em away. Its pieces on that
 * line and the next ones, left of the table, become lines of their own before the table's rows, so the caption is
 * a paragraph and the rows keep only their cells. A second "Table N" in that column makes it a list of tables.
 */
export const splitSideCaptions = (lines: Line[]): Line[] => {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const [first, next] = line.segments;
    const em = line.fontSize;
    if (
      !first ||
      !next ||
      line.segments.length < 3 ||
      !SIDE_CAPTION_RE.test(first.text) ||
      next.left - first.right < em ||
      first.right - first.left > 0.4 * (line.right - line.left)
    ) {
      out.push(line);
      continue;
    }
    // The caption's lines start at its left edge and end before the table's; they need not share the rows'
    // baselines. Two lines in a row without a piece of it end the caption.
    const edge = next.left - 0.5 * em;
    const inColumn = (s: Segment) => s.right <= edge && Math.abs(s.left - first.left) <= em;
    const captions: Line[] = [];
    const rows: Line[] = [];
    let j = i;
    let list = false;
    for (let missed = 0; j < lines.length && j < i + MAX_CAPTION_LINES && missed < 2; j++) {
      const row = lines[j] as Line;
      const side = row.segments.filter(inColumn);
      // Another "Table 3" in the column: a list of tables, numbers beside titles, not a caption.
      list ||= j > i && side.some((s) => SIDE_CAPTION_RE.test(s.text));
      missed = side.length ? 0 : missed + 1;
      if (side.length) captions.push(lineOf(row, side));
      const rest = row.segments.filter((s) => !side.includes(s));
      if (rest.length) rows.push(side.length ? lineOf(row, rest) : row);
    }
    out.push(...(list ? lines.slice(i, j) : [...captions, ...rows]));
    i = j - 1;
  }
  return out;
};
