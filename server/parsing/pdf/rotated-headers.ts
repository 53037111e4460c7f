import type { PageText, RotatedText, Run } from "./types";

/**
 * Column headings set at an angle. Papers and reports turn the headings of narrow columns 90° (read bottom to top
 * over each column) and align their feet on the header row. Read as text at an angle they would leave the table
 * with no header and come out after the page's flow; here each becomes a horizontal run on the header row, as wide
 * as the column heading drawn, so the table finds it as that column's header cell.
 *
 * A heading qualifies when, beside at least one other heading whose foot is on the same line, it stands over a
 * value of its own just below it, the values of the row's headings on one line. A margin stamp ("arXiv:… [cs.CL]",
 * "Preprint" down the margin) or a chart's axis title stands alone or beside its tick labels, and a landscape table
 * turned on the page has no horizontal values under its lines: they stay text at an angle.
 */

/** Feet on one line: within this many font sizes. */
const FOOT_EM = 0.6;
/** The value under a heading starts within this many font sizes of its foot. */
const BELOW_EM = 2.5;
/** Lines of one heading (a heading wrapped over two turned lines) lie this close side by side. */
const BESIDE_EM = 0.5;
/** A column heading is short: longer turned text is a stamp or a note. */
const MAX_WORDS = 8;

type Heading = { parts: Line[]; left: number; right: number; foot: number; size: number; below: Run };

const isUpright = (r: RotatedText) =>
  r.bottom - r.top > r.right - r.left && r.text.trim().split(/\s+/).length <= MAX_WORDS;

/** Boxes side by side across at least half the narrower one's width: one over the other. */
const stacked = (a: { left: number; right: number }, b: { left: number; right: number }) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) >= 0.5 * Math.min(a.right - a.left, b.right - b.left);

/** A turned line, and the pieces it was drawn in. */
type Line = RotatedText & { pieces: RotatedText[] };

/**
 * Pieces of one turned line drawn one after the other ("Content (mg·g", a raised "-1", "DW)") as one line, so a
 * line is judged by where it ends, not by where one of its pieces does.
 */
const joinPieces = (rotated: readonly RotatedText[]): Line[] => {
  const lines: Line[] = [];
  for (const r of rotated) {
    const last = lines[lines.length - 1];
    const pad = 0.5 * r.fontSize;
    if (last && stacked(last, r) && r.top <= last.bottom + pad && r.bottom >= last.top - pad) {
      last.text = `${last.text.trimEnd()} ${r.text}`;
      last.left = Math.min(last.left, r.left);
      last.top = Math.min(last.top, r.top);
      last.right = Math.max(last.right, r.right);
      last.bottom = Math.max(last.bottom, r.bottom);
      last.fontSize = Math.max(last.fontSize, r.fontSize);
      last.pieces.push(r);
    } else lines.push({ ...r, pieces: [r] });
  }
  return lines;
};

/**
 * The first horizontal run under a turned line: starting close below its foot and across its width (an axis' tick
 * labels beside a chart's turned axis title are not under it).
 */
const runBelow = (r: RotatedText, runs: readonly Run[]): Run | undefined => {
  const em = r.fontSize;
  let best: Run | undefined;
  for (const run of runs) {
    if (!stacked(run, r)) continue;
    if (run.top < r.bottom - 0.5 * em || run.top - r.bottom > BELOW_EM * em) continue;
    if (!best || run.top < best.top) best = run;
  }
  return best;
};

/** Turned lines over one value, side by side with their feet on one line, as one heading (left to right). */
const headingsOf = (lines: readonly Line[], runs: readonly Run[]): Heading[] => {
  const headings: Heading[] = [];
  const sorted = lines.filter(isUpright).sort((a, b) => a.left - b.left);
  for (const r of sorted) {
    const below = runBelow(r, runs);
    if (!below) continue;
    const last = headings[headings.length - 1];
    const joins =
      last?.below === below &&
      r.left - last.right <= BESIDE_EM * r.fontSize &&
      Math.abs(r.bottom - last.foot) <= FOOT_EM * r.fontSize;
    if (joins) {
      last.parts.push(r);
      last.right = Math.max(last.right, r.right);
      continue;
    }
    headings.push({ parts: [r], left: r.left, right: r.right, foot: r.bottom, size: r.fontSize, below });
  }
  return headings;
};

/**
 * The headings of a header row: their feet on one line and, under each, its own value, the values on one line (the
 * table's first row). Two headings or more make a row.
 */
const headerRows = (headings: readonly Heading[]): Heading[][] => {
  const rows: Heading[][] = [];
  for (const h of [...headings].sort((a, b) => a.foot - b.foot)) {
    const row = rows.find((r) => Math.abs(r[0]!.foot - h.foot) <= FOOT_EM * h.size);
    if (row && !row.some((o) => o.below === h.below)) row.push(h);
    else if (!row) rows.push([h]);
  }
  const onFirstRow = (row: Heading[]) => {
    const on = (h: Heading, o: Heading) => Math.abs(h.below.baseline - o.below.baseline) <= FOOT_EM * h.size;
    const counts = row.map((h) => row.filter((o) => on(h, o)).length);
    const first = row[counts.indexOf(Math.max(...counts))]!;
    return row.filter((h) => on(h, first));
  };
  return rows.map(onFirstRow).filter((r) => r.length >= 2);
};

/** The heading as a horizontal run whose baseline is its foot, in the font of the value under it. */
const asRun = (h: Heading): Run => ({
  left: h.left,
  right: h.right,
  top: h.foot - 0.75 * h.size,
  bottom: h.foot + 0.25 * h.size,
  baseline: h.foot,
  text: h.parts.map((p) => p.text.trim()).join(" "),
  fontSize: h.size,
  fontName: h.below.fontName,
  mono: false,
});

/** The page with the turned column headings of its tables moved into its runs; other turned text stays as it is. */
export const withRotatedHeaders = (page: PageText): PageText => {
  if (page.rotated.length < 2) return page;
  const rows = headerRows(headingsOf(joinPieces(page.rotated), page.runs));
  if (rows.length === 0) return page;
  const taken = new Set(rows.flat().flatMap((h) => h.parts.flatMap((p) => p.pieces)));
  const added = rows.flat().map(asRun);
  return { ...page, runs: [...page.runs, ...added], rotated: page.rotated.filter((r) => !taken.has(r)) };
};
