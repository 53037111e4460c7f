import type { Block } from "./types";

/** Share of a numbered listing's characters, line numbers left out, that must be set in a fixed-pitch font. */
const MONO_SHARE = 0.8;

/**
 * A listing with numbered lines (LaTeX's listings package with `numbers=left`, an editor's printout): a column of
 * consecutive line numbers beside lines in a fixed-pitch font lines up like a two-column table, often inside the
 * listing's frame, but it is code. Gives the listing's lines without their numbers, or null when the block is no such
 * listing: the first column counts up by one on every row, and the rest is typewriter text.
 */
export const numberedListing = (block: Block): string | null => {
  const rows = block.rows;
  if (!rows || rows.length < 2 || rows.some((r) => r.length < 2)) return null;
  const numbers = rows.map((r) => (/^\d{1,4}$/.test(r[0]?.trim() ?? "") ? Number(r[0]) : NaN));
  if (numbers.some((n, i) => Number.isNaN(n) || (i > 0 && n !== (numbers[i - 1] ?? 0) + 1))) return null;
  let total = 0;
  let mono = 0;
  for (const run of block.lines.flatMap((l) => l.segments.flatMap((s) => s.runs))) {
    if (/^\s*\d+\s*$/.test(run.text)) continue;
    total += run.text.length;
    if (run.mono) mono += run.text.length;
  }
  if (total === 0 || mono < total * MONO_SHARE) return null;
  return rows.map((r) => r.slice(1).join(" ").trimEnd()).join("\n");
};
