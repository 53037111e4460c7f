import { BOLD_FONT, SMALL_CAPS_FONT } from "./font-names";
import { joinRuns } from "./layout";
import type { DocStats } from "./stats";
import { union, type Block, type Line, type Run } from "./types";

const CAPTION_RE = /^(?:figure|fig\.|table|tab\.|chart|exhibit|listing|algorithm)\s*\d/i;

/** A run-in heading's words: a capital or a section number first, a full stop last, a few words. */
const looksLikeRunIn = (text: string): boolean =>
  text.length >= 3 &&
  text.length <= 60 &&
  /^(?:\d{1,2}(?:\.\d{1,2})*\.?\s+)?\p{Lu}/u.test(text) &&
  // A term may end in a digit ("Heading F1."), a number alone does not ("Theorem 1.").
  /\p{L}\p{N}{0,2}[.]{1,2}$/u.test(text) &&
  text.split(/\s+/).length <= 8 &&
  !CAPTION_RE.test(text);

const lineOf = (runs: Run[], like: Line): Line => ({
  ...like,
  ...union(runs),
  text: joinRuns(runs).trim(),
  segments: like.segments
    .map((s) => ({ ...s, runs: s.runs.filter((r) => runs.includes(r)) }))
    .filter((s) => s.runs.length > 0)
    .map((s) => ({ ...s, ...union(s.runs), text: joinRuns(s.runs).trim() })),
});

/**
 * A paragraph that opens with a few words in bold or small capitals ending in a full stop, then goes on in the body's
 * font on the same line ("Online Sources. A bibliography entry …", LaTeX's \paragraph, amsart's "Abstract."), starts
 * with a run-in heading: the heading and the paragraph are two elements.
 */
export const splitRunIn = (block: Block, stats: DocStats): { heading: Block; rest: Block } | null => {
  const [first, ...others] = block.lines;
  if (block.kind !== "text" || !first) return null;
  const runs = first.segments.flatMap((s) => s.runs);
  // amsart sets a subsection's number in the body's font before its bold words ("2.1. Definitions. Those …").
  const numbered = runs.length > 1 && /^\d{1,2}(?:\.\d{1,2})+\.?$/.test(runs[0]?.text.trim() ?? "") ? 1 : 0;
  const boldFont = runs[numbered]?.fontName ?? "";
  if (boldFont === stats.bodyFont || !(BOLD_FONT.test(boldFont) || SMALL_CAPS_FONT.test(boldFont))) return null;
  const count = runs.findIndex((r, i) => i > numbered && r.fontName !== boldFont);
  if (count <= 0) return null;
  const lead = runs.slice(0, count);
  const tail = runs.slice(count);
  const heading = joinRuns(lead).trim();
  // The rest of the line is the paragraph's text, in a font that is not bold.
  if (!looksLikeRunIn(heading) || BOLD_FONT.test(tail[0]?.fontName ?? "")) return null;
  if (joinRuns(tail).trim().length < 3) return null;
  const headingLine = lineOf(lead, first);
  const restLine = lineOf(tail, first);
  return {
    heading: { ...union([headingLine]), lines: [headingLine], kind: "text" },
    rest: { ...block, ...union([restLine, ...others]), lines: [restLine, ...others] },
  };
};
