import type { PixelBox } from "./types";

/**
 * Reading order of text lines on a scanned page with columns (recursive XY-cut). A region is cut into horizontal
 * bands, and consecutive bands that keep the same vertical gutters open are read together; a group whose lines all
 * leave a gutter open is split there, columns read left to right. So a three-column author block is read column
 * by column (each author's name, affiliation and address together) between a full-width title and abstract.
 */

/** A gutter is at least this many line heights wide (word gaps inside a detected line never count). */
const MIN_GUTTER_LINES = 0.8;

const height = (b: PixelBox) => b.bottom - b.top;

const medianHeight = (lines: readonly PixelBox[]) => {
  const hs = lines.map(height).sort((a, b) => a - b);
  return hs[Math.floor(hs.length / 2)] ?? 0;
};

/** The x positions of gutters of at least `minGap` between the lines' horizontal extents. */
const gutters = (lines: readonly PixelBox[], minGap: number): number[] => {
  const spans = lines.map((l) => [l.left, l.right] as const).sort((a, b) => a[0] - b[0]);
  const cuts: number[] = [];
  let reach = spans[0]?.[1] ?? 0;
  for (const [left, right] of spans.slice(1)) {
    if (left - reach >= minGap) cuts.push((left + reach) / 2);
    reach = Math.max(reach, right);
  }
  return cuts;
};

/** Lines split into horizontal bands at every vertical gap between them (lines sharing a height share a band). */
const bands = <T extends PixelBox>(lines: readonly T[]): T[][] => {
  const sorted = [...lines].sort((a, b) => a.top - b.top);
  const out: T[][] = [];
  let bottom = -Infinity;
  for (const line of sorted) {
    const band = out[out.length - 1];
    // Lines overlapping by more than a third of the smaller height belong to one band.
    if (band && line.top < bottom - Math.min(height(line), medianHeight(band)) / 3) {
      band.push(line);
      bottom = Math.max(bottom, line.bottom);
    } else {
      out.push([line]);
      bottom = line.bottom;
    }
  }
  return out.map((band) => band.sort((a, b) => a.left - b.left));
};

/** Consecutive bands read together: those that keep the same gutters open, or runs of bands without any. */
const bandGroups = <T extends PixelBox>(lines: readonly T[], minGap: number): T[][] => {
  const groups: T[][] = [];
  let current: T[] = [];
  let open = 0;
  for (const band of bands(lines)) {
    const joined = [...current, ...band];
    // A band that crosses a gutter (a full-width line below columns) starts a new group; one that leaves it open
    // (the last line of the left column) joins.
    const keeps = open > 0 && gutters(joined, minGap).length >= open;
    const plain = open === 0 && gutters(band, minGap).length === 0;
    if (current.length > 0 && (keeps || plain)) {
      current = joined;
      continue;
    }
    if (current.length > 0) groups.push(current);
    current = [...band];
    open = gutters(band, minGap).length;
  }
  if (current.length > 0) groups.push(current);
  return groups;
};

const split = <T extends PixelBox>(lines: readonly T[], minGap: number, depth: number): T[][] => {
  if (lines.length === 0) return [];
  const groups = bandGroups(lines, minGap);
  if (groups.length > 1 && depth < 20) return groups.flatMap((group) => split(group, minGap, depth + 1));
  const cuts = gutters(lines, minGap);
  if (cuts.length === 0 || depth >= 20) return [bands(lines).flat()];
  const columns: T[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const line of lines) {
    const centre = (line.left + line.right) / 2;
    const at = cuts.findIndex((x) => centre < x);
    columns[at < 0 ? cuts.length : at]?.push(line);
  }
  return columns.flatMap((column) => split(column, minGap, depth + 1));
};

/** Lines grouped into blocks (columns and full-width runs), blocks and their lines in reading order. */
export const orderLines = <T extends PixelBox>(lines: readonly T[]): T[][] => {
  if (lines.length === 0) return [];
  return split(lines, medianHeight(lines) * MIN_GUTTER_LINES, 0);
};
