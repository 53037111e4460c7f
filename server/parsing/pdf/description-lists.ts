import { BOLD_FONT } from "./font-names";
import type { DocStats } from "./stats";
import { union, type Block, type Line } from "./types";

/** Items of a run with no item that wraps: a run this long of one-line paragraphs led by bold terms is a list. */
const MIN_UNWRAPPED_ITEMS = 3;
const MAX_TERM_WORDS = 4;

/** The left edge of a line that opens with a bold term (not a run-in heading's sentence ending in a full stop) and
 * goes on in another font; null otherwise. */
const termStart = (line: Line | undefined, stats: DocStats): number | null => {
  if (!line) return null;
  const runs = line.segments.flatMap((s) => s.runs);
  const font = runs[0]?.fontName ?? "";
  if (font === stats.bodyFont || !BOLD_FONT.test(font)) return null;
  const count = runs.findIndex((r) => r.fontName !== font);
  if (count <= 0 || BOLD_FONT.test(runs[count]?.fontName ?? "")) return null;
  const term = runs
    .slice(0, count)
    .map((r) => r.text)
    .join(" ")
    .trim();
  if (!term || /[.!?]$/.test(term) || term.split(/\s+/).length > MAX_TERM_WORDS) return null;
  return line.left;
};

const blockTermStart = (block: Block, stats: DocStats): number | null =>
  block.kind !== "text" || block.item ? null : termStart(block.lines[0], stats);

/** A block whose lines are items set without space between them, maybe after a paragraph that ends a sentence: split
 * at each line opening with a term at the first term's edge, when every other line from there hangs right of it. A
 * paragraph's last line alone opening with a term is split off when the next block opens with one at the same edge. */
const splitTerms = (block: Block, stats: DocStats, next: Block | undefined): Block[] => {
  if (block.kind !== "text" || block.item) return [block];
  const k = block.lines.findIndex(
    (l, i) => termStart(l, stats) !== null && (i === 0 || /[.!?:]$/.test(block.lines[i - 1]?.text.trim() ?? "")),
  );
  const left = termStart(block.lines[k], stats);
  if (left === null) return [block];
  // A paragraph's last line opening the list: the list goes on in the next block, from the same edge.
  const goesOn = next !== undefined && blockTermStart(next, stats) === left;
  const lines = block.lines.slice(k);
  const starts = lines.map((l) => {
    const start = termStart(l, stats);
    return start !== null && Math.abs(start - left) <= 1;
  });
  const hanging = lines.every((l, i) => starts[i] || l.left > left + 0.5 * l.fontSize);
  if (!hanging || starts.filter(Boolean).length < (goesOn && k > 0 ? 1 : 2)) return [block];
  const parts: Line[][] = k > 0 ? [block.lines.slice(0, k)] : [];
  lines.forEach((l, i) => {
    if (starts[i] || parts.length === 0) parts.push([l]);
    else parts[parts.length - 1]?.push(l);
  });
  return parts.map((part) => ({ ...union(part), lines: part, kind: "text" }));
};

/** The block's wrapped lines start right of its first line: a hanging indent, as an item's do. */
const hangs = (block: Block): boolean => {
  const [first, ...rest] = block.lines;
  return !!first && rest.length > 0 && rest.every((l) => l.left > first.left + 0.5 * first.fontSize);
};

/**
 * A description list (LaTeX's description, a glossary set as paragraphs): consecutive paragraphs, each opening at the
 * same left edge with a bold term followed by its meaning on the same line, the meaning's wrapped lines indented under
 * it, with or without space between them. Each is an item. Paragraphs led by a bold phrase whose wrapped lines come back to the margin are prose, and so
 * are fewer than three such paragraphs of one line each: nothing says they are items.
 */
export const markDescriptionItems = (blocks: Block[], stats: DocStats): Block[] => {
  const out = blocks.flatMap((b, i) => splitTerms(b, stats, blocks[i + 1]));
  let i = 0;
  while (i < out.length) {
    const left = blockTermStart(out[i] as Block, stats);
    let j = i;
    while (left !== null && j < out.length) {
      const b = out[j] as Block;
      const start = blockTermStart(b, stats);
      if (start === null || Math.abs(start - left) > 1) break;
      if (b.lines.length > 1 && !hangs(b)) break;
      j++;
    }
    const run = out.slice(i, j);
    const wraps = run.some((b) => b.lines.length > 1);
    if (run.length >= 2 && (wraps || run.length >= MIN_UNWRAPPED_ITEMS)) {
      for (let k = i; k < j; k++) out[k] = { ...(out[k] as Block), item: true };
    }
    i = Math.max(j, i + 1);
  }
  return out;
};

/** A term set in bold on a line of its own (an HTML `<dt>`): a few words, no sentence's end, nothing else beside. */
const ownLineTerm = (block: Block, stats: DocStats): Line | null => {
  const [line, ...rest] = block.lines;
  if (block.kind !== "text" || block.item || !line || rest.length > 0) return null;
  const runs = line.segments.flatMap((s) => s.runs);
  const bold = runs.every((r) => r.fontName !== stats.bodyFont && BOLD_FONT.test(r.fontName));
  const text = line.text.trim();
  if (!bold || /[.!?:;,]$/.test(text) || text.split(/\s+/).length > MAX_TERM_WORDS) return null;
  return Math.abs(line.fontSize - stats.bodySize) <= 0.1 * stats.bodySize ? line : null;
};

/** The meaning under a term: text in another font, every line indented right of the term, right below it. */
const meaningUnder = (term: Line, block: Block | undefined, stats: DocStats): boolean => {
  const first = block?.lines[0];
  if (!block || !first || block.kind !== "text" || block.item || first.fontName === term.fontName) return false;
  const em = term.fontSize;
  const close = first.baseline - term.baseline <= 1.6 * stats.pitch(term.fontSize) + 1;
  return close && block.lines.every((l) => l.left >= term.left + em);
};

/**
 * A description list whose terms stand on lines of their own, each meaning indented under its term (HTML's `<dl>`:
 * "Adult" over "Borrow up to 15 items at a time, …"): two or more such pairs in a row, the terms at one left edge,
 * are items, each term joined to its meaning. A bold line over an indented paragraph once is no list: a heading may
 * be.
 */
export const joinTermsOnOwnLines = (blocks: Block[], stats: DocStats): Block[] => {
  const pairAt = (i: number) => {
    const term = blocks[i] ? ownLineTerm(blocks[i] as Block, stats) : null;
    return term && meaningUnder(term, blocks[i + 1], stats) ? term : null;
  };
  const out: Block[] = [];
  let i = 0;
  while (i < blocks.length) {
    const first = pairAt(i);
    let j = i;
    while (first && pairAt(j) && Math.abs((pairAt(j)?.left ?? 0) - first.left) <= 1) j += 2;
    if (j - i >= 4) {
      for (let k = i; k < j; k += 2) {
        const lines = [...(blocks[k]?.lines ?? []), ...(blocks[k + 1]?.lines ?? [])];
        out.push({ ...union(lines), lines, kind: "text", item: true });
      }
      i = j;
    } else out.push(blocks[i++] as Block);
  }
  return out;
};
