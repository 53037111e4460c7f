import type { PixelBox } from "./types";

/**
 * Reading order of text lines on a scanned page with columns (recursive XY-cut). A region is cut into horizontal
 * bands, and consecutive bands that keep the same vertical gutters open are read together; a group whose lines all
 * leave a gutter open is split there, columns read left to right. So a three-column author block is read column
 * by column (each author's name, affiliation and address together) between a full-width title and abstract.
 */

/** A gutter is at least this many line heights wide (word gaps inside a detected line never count). */
const MIN_GUTTER_LINES = 0.8;
/** An open gutter stays open while at least this share of that width is free. */
const KEEP_GAP = 0.5;
/** A blank strip of at least this many line heights across all columns may end a layout (newLayout). */
const LAYOUT_GAP_LINES = 1.2;

const height = (b: PixelBox) => b.bottom - b.top;

const medianHeight = (lines: readonly PixelBox[]) => {
  const hs = lines.map(height).sort((a, b) => a - b);
  return hs[Math.floor(hs.length / 2)] ?? 0;
};

/** A gutter: the free strip from `lo` (the right edge of the ink left of it) to `hi` (the left edge right of it). */
type Strip = { lo: number; hi: number };

/** The gutters of at least `minGap` between the lines' horizontal extents, left to right. */
const strips = (lines: readonly PixelBox[], minGap: number): Strip[] => {
  const spans = lines.map((l) => [l.left, l.right] as const).sort((a, b) => a[0] - b[0]);
  const found: Strip[] = [];
  let reach = spans[0]?.[1] ?? 0;
  for (const [left, right] of spans.slice(1)) {
    if (left - reach >= minGap) found.push({ lo: reach, hi: left });
    reach = Math.max(reach, right);
  }
  return found;
};

/** The x positions of gutters of at least `minGap` between the lines' horizontal extents. */
const gutters = (lines: readonly PixelBox[], minGap: number): number[] =>
  strips(lines, minGap).map((s) => (s.lo + s.hi) / 2);

/**
 * The strips narrowed by a band's lines (each line pushes the side its centre is on), or null when one closes to
 * less than KEEP_GAP of the gutter width: a line crosses it. A gutter found once stays open at a narrower width, so
 * a column line that reaches a little further than the others (OCR boxes are padded) does not end the columns.
 */
const narrowed = (open: readonly Strip[], band: readonly PixelBox[], minGap: number): Strip[] | null => {
  const out: Strip[] = [];
  for (const strip of open) {
    let { lo, hi } = strip;
    for (const line of band) {
      if ((line.left + line.right) / 2 < (strip.lo + strip.hi) / 2) lo = Math.max(lo, line.right);
      else hi = Math.min(hi, line.left);
    }
    if (hi - lo < minGap * KEEP_GAP) return null;
    out.push({ lo, hi });
  }
  return out;
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

type Group<T> = { lines: T[]; open: Strip[] };

/**
 * A band below a blank strip across the page that reaches past the group's ink on either side by more than a line
 * height: the columns above were another, narrower layout (an author block whose centred columns sit over the text
 * columns), read apart from the text below. Running columns keep their edges, and their blank lines (a heading's
 * space) are in one column only.
 */
const newLayout = <T extends PixelBox>(group: Group<T>, band: readonly T[], lineHeight: number) => {
  const bottom = Math.max(...group.lines.map((l) => l.bottom));
  if (Math.min(...band.map((l) => l.top)) - bottom < LAYOUT_GAP_LINES * lineHeight) return false;
  const left = Math.min(...group.lines.map((l) => l.left));
  const right = Math.max(...group.lines.map((l) => l.right));
  return band.some((l) => l.left < left - lineHeight || l.right > right + lineHeight);
};

/** Consecutive bands read together: those that keep the same gutters open, or runs of bands without any. */
const bandGroups = <T extends PixelBox>(lines: readonly T[], minGap: number, lineHeight: number): Group<T>[] => {
  const groups: Group<T>[] = [];
  let current: Group<T> | null = null;
  for (const band of bands(lines)) {
    // A band that crosses a gutter (a full-width line below columns) starts a new group; one that leaves it open
    // (the last line of the left column) joins.
    // Bands without gutters so far take a band that opens some when none of their lines crosses them (a heading
    // or the first lines of a column above the first line beside a margin note).
    const opens = strips(band, minGap);
    const kept =
      current && current.open.length > 0
        ? narrowed(current.open, band, minGap)
        : current && opens.length > 0
          ? narrowed(opens, current.lines, minGap)
          : null;
    const plain = current !== null && current.open.length === 0 && opens.length === 0;
    if (current && (kept || plain) && !(kept && newLayout(current, band, lineHeight))) {
      current.lines.push(...band);
      if (kept) current.open = kept;
      continue;
    }
    if (current) groups.push(current);
    current = { lines: [...band], open: opens };
  }
  if (current) groups.push(current);
  return groups;
};

const split = <T extends PixelBox>(lines: readonly T[], minGap: number, depth: number): T[][] => {
  if (lines.length === 0) return [];
  const groups = bandGroups(lines, minGap, minGap / MIN_GUTTER_LINES);
  if (groups.length > 1 && depth < 20) return groups.flatMap((group) => split(group.lines, minGap, depth + 1));
  const open = groups[0]?.open ?? [];
  const cuts = open.length > 0 ? open.map((s) => (s.lo + s.hi) / 2) : gutters(lines, minGap);
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
