import { isFigure } from "./unruled-tables";
import type { Line, Segment } from "./types";

/**
 * Where a run of aligned lines (blocks.ts) really starts and ends: a line above the rows that only looks like one,
 * and a total set alone under its column.
 */

/** Edges (left, right or centre) this many ems apart still line up. */
const ALIGN_EM = 0.3;

const linesUp = (a: Segment, b: Segment, em: number) =>
  Math.abs(a.left - b.left) <= ALIGN_EM * em ||
  Math.abs(a.right - b.right) <= ALIGN_EM * em ||
  Math.abs((a.left + a.right) / 2 - (b.left + b.right) / 2) <= ALIGN_EM * em;

const medianPitch = (lines: Line[]): number => {
  const pitches = lines.slice(1).map((l, i) => l.baseline - (lines[i]?.baseline ?? 0));
  return [...pitches].sort((a, b) => a - b)[Math.floor(pitches.length / 2)] ?? 0;
};

/**
 * The first line of `rows` stands apart from the rest: one or two segments, more than 1.8 times the rows' own
 * spacing above them, with a segment that lines up with no cell under it. That is text above the table (an invoice's
 * number and date over its items), not its header: a header's cells sit over their columns.
 */
export const standsApartAbove = (rows: Line[]): boolean => {
  const [first, second] = rows;
  const rest = rows.slice(1);
  if (!first || !second || rest.length < 2 || first.segments.length > 2) return false;
  const pitch = medianPitch(rest);
  if (pitch <= 0 || second.baseline - first.baseline <= 1.8 * pitch) return false;
  const em = first.fontSize;
  return first.segments.some((s) => !rest.some((l) => l.segments.some((t) => linesUp(s, t, em))));
};

/**
 * A line right under the rows, at their spacing, holding one figure whose right edge is that of the figure ending
 * the row above (its last column, not its first): the amounts' total ("845.00"), the table's last row. A figure
 * under a middle column is more likely a sum worked out beside the table (a rate's denominator) than its total.
 */
export const isTotalBelow = (rows: Line[], line: Line | undefined): boolean => {
  const last = rows[rows.length - 1];
  const only = line?.segments.length === 1 ? line.segments[0] : undefined;
  if (!line || !last || !only || !isFigure(only.text.trim())) return false;
  const pitch = medianPitch(rows);
  const gap = line.baseline - last.baseline;
  if (gap <= 0 || gap > 1.3 * pitch + 1) return false;
  const end = last.segments.length >= 2 ? last.segments[last.segments.length - 1] : undefined;
  return !!end && isFigure(end.text.trim()) && Math.abs(end.right - only.right) <= ALIGN_EM * line.fontSize;
};
