import { union, type Line, type Segment } from "./types";

/**
 * A justified line of prose or of a list item, its word spaces stretched so wide that the layout cut it into
 * segments ("1. Remove   Energy   water   staff   level"): three segments or more, each a word, every gap between them
 * the same width. Justification stretches a line's spaces evenly; a table's cells leave gaps as wide as their
 * columns and texts make them, and its columns line up across rows. A header row whose cells are each their column's
 * widest (LaTeX sizes columns to them) has even gaps too, but the cells of the rows below line up under its cells.
 */

/** Gaps that differ by no more than this many font sizes are one stretched space. */
const EVEN_GAP_EM = 0.15;
/** Edges closer than this many points line up (a table's columns are set on exact positions). */
const ALIGNED = 0.5;

/**
 * Words (one to three): letters with a hyphen or apostrophe inside, a punctuation mark after; the first segment may
 * start with a list's marker. Figures, units and symbols are a table's.
 */
const WORD = String.raw`\p{L}[\p{L}'’-]*[.,;:!?]?`;
const WORDS = new RegExp(`^${WORD}(?:\\s+${WORD}){0,2}$`, "u");
const FIRST_WORDS = new RegExp(
  String.raw`^(?:(?:\d{1,2}[.)]|[a-z][.)]|[^\p{L}\p{N}\s]{1,2})\s+)?` + WORDS.source.slice(1),
  "u",
);

const evenGaps = (segments: Segment[], em: number): boolean => {
  const gaps = segments.slice(1).map((s, i) => s.left - (segments[i]?.right ?? s.left));
  return Math.max(...gaps) - Math.min(...gaps) <= EVEN_GAP_EM * em;
};

/** A segment after the first whose left edge, right edge or centre falls on one of another line's segments. */
const linesUp = (segment: Segment, other: Line) =>
  other.segments.some(
    (o) =>
      Math.abs(o.left - segment.left) <= ALIGNED ||
      Math.abs(o.right - segment.right) <= ALIGNED ||
      Math.abs(o.left + o.right - segment.left - segment.right) <= 2 * ALIGNED,
  );

/**
 * Most of the line's inner segments line up with a neighbouring line's: a table's row. The first and last are left
 * out: a justified line's edges are its column's, as are its neighbours'.
 */
const alignedWith = (line: Line, other: Line) => {
  const inner = line.segments.slice(1, -1);
  return inner.filter((s) => linesUp(s, other)).length >= Math.ceil((2 * inner.length) / 3);
};

/** Three segments or more, each a word or two (the first after a marker), every gap between them the same width. */
const isJustifiedRow = (segments: Segment[], em: number): boolean => {
  const [first, ...rest] = segments;
  if (!first || rest.length < 2) return false;
  if (!FIRST_WORDS.test(first.text.trim()) || !rest.every((s) => WORDS.test(s.text.trim()))) return false;
  return evenGaps(segments, em);
};

/** A line ending where a neighbouring line ends: justification stretches a line out to its column's right edge. */
const fillsColumn = (line: Line, neighbours: (Line | undefined)[]) =>
  neighbours.some((other) => other && Math.abs(other.right - line.right) <= 2 * ALIGNED);

export const isJustifiedLine = (line: Line, neighbours: (Line | undefined)[]): boolean => {
  // A row of group headings centred over a table's columns has even gaps too, but ends short of the rows below.
  if (!isJustifiedRow(line.segments, line.fontSize) || !fillsColumn(line, neighbours)) return false;
  // Columns line up over a table's rows: with two other lines at least, where a chance match is with one.
  return neighbours.filter((other) => other && other.segments.length >= 2 && alignedWith(line, other)).length < 2;
};

/**
 * Segments with each row's justified line joined into one segment: column detection reads a side whose rows are
 * cut into many segments as a table's cells, and a column of justified list items is cut so.
 */
export const joinJustifiedRows = (segments: Segment[]): Segment[] => {
  const rows = new Map<number, Segment[]>();
  for (const s of segments) rows.set(s.row, [...(rows.get(s.row) ?? []), s]);
  return [...rows.values()].flatMap((row) => {
    const sorted = [...row].sort((a, b) => a.left - b.left);
    const [first] = sorted;
    if (!first || !isJustifiedRow(sorted, first.fontSize)) return sorted;
    const box = union(sorted);
    return [{ ...first, ...box, text: sorted.map((s) => s.text).join(" "), runs: sorted.flatMap((s) => s.runs) }];
  });
};
