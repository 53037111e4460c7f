import { bulletPrefixLength, hasTerminalPunctuation, isBulleted } from "../classify-text";
import type { DocStats } from "./stats";
import { union, type Block, type Line } from "./types";

/**
 * List items across lines: an item's marker (bullet, number, "[n]"), where its text starts, and where an item set
 * with a hanging indent ends or goes on (the paragraph after a list, an item whose first line ended a sentence).
 */

/**
 * A dotted number opening a line before a capital: "1.2 Configure …", "2.3.1. Start …", a clause defining a term
 * ("1.1 "Customer" means …", "(Service)"); not "3.5 million …".
 */
export const DOTTED_ITEM_RE = /^\d{1,2}(?:\.\d{1,2})+\.?[ \t]+["'“‘«(]?\p{Lu}/u;
const DOTTED_MARKER_RE = /^\d{1,2}(?:\.\d{1,2})+\.?[ \t]+/;

/** A bibliography entry's number ("[12] A. Author. Title …"): each entry is an item of the reference list. */
const REFERENCE_ENTRY_RE = /^\[\d{1,3}\][ \t]+(?=\S)/;

/**
 * An item's number wider than the list's tab stop ("10." or "III." in a hanging indent of a quarter inch) touches the
 * item's first word: the word processor sets it one tab on, at the text's edge, with no room for a gap ("10.Before
 * …", "a)And another"). Only before a capitalised word: "3.5", "e.g." and "No.5" are no items.
 */
const TIGHT_NUMBER_RE = /^(?:(?:\d{1,3}|[ivx]{2,5}|[IVX]{2,5})[.)]|[a-z]\))(?=\p{Lu}\p{Ll})/u;

/** The length of a list item's marker: a bullet, a number or letter, or a bibliography entry's "[n]". */
export const itemPrefixLength = (text: string): number =>
  bulletPrefixLength(text) ||
  (REFERENCE_ENTRY_RE.exec(text)?.[0].length ?? 0) ||
  (TIGHT_NUMBER_RE.exec(text)?.[0].length ?? 0);

/** A list item's text with a space after a number set against its first word ("10. Before …"). */
export const spacedItemText = (text: string): string => text.replace(TIGHT_NUMBER_RE, "$& ");

/**
 * Where the text of a list item's first line starts, after its bullet or number: the second run when the marker is a
 * run of its own, else the marker's characters at about half an em each.
 */
export const itemTextLeft = (line: Line): number => {
  const runs = line.segments.flatMap((s) => s.runs);
  const [marker, text] = runs;
  if (marker && text && isBulleted(`${marker.text.trim()} x`)) return text.left;
  return line.left + 0.5 * line.fontSize * itemPrefixLength(line.text);
};

/**
 * A hanging indent sets an item's wrapped lines under its text, right of its marker: a line back at the marker's edge
 * is the paragraph after the list once the item has ended there. It has when its line ends a sentence or a clause,
 * stops well short of where the next line reaches, or when the item already wrapped under its text (a wrapped line
 * never goes back to the marker). A list set without a hanging indent wraps its full lines to the marker's edge: such
 * a line goes on.
 */
export const leavesHangingItem = (block: Line[], next: Line): boolean => {
  const first = block[0];
  const prev = block[block.length - 1];
  if (!first || !prev) return false;
  // An item numbered at several levels ("3.2. Configure …") is told from a heading only after blocks are made.
  const dotted = DOTTED_ITEM_RE.test(first.text) ? (DOTTED_MARKER_RE.exec(first.text)?.[0].length ?? 0) : 0;
  if (itemPrefixLength(first.text) === 0 && dotted === 0) return false;
  const em = next.fontSize;
  const textLeft = dotted ? first.left + 0.5 * first.fontSize * dotted : itemTextLeft(first);
  if (textLeft - first.left < 0.8 * em || next.left > first.left + 0.3 * em) return false;
  const wrappedUnderText = block.length >= 2 && block.slice(1).every((l) => Math.abs(l.left - textLeft) <= 0.6 * em);
  const ended = hasTerminalPunctuation(prev.text) || /[:;]$/.test(prev.text.trim()) || prev.right < next.right - 3 * em;
  return wrappedUnderText || ended;
};

/**
 * A paragraph's lines after its first share one left edge, and its first line is indented if any: a line starting
 * left of all of them, after a line that ends a sentence, opens the next paragraph. So the wrapped rest of an item
 * whose first line ended a sentence (a block of its own, joined back to the item by `joinItemWraps`) ends where the
 * paragraph after the list goes back to the list's edge. One line alone may be an indented first line.
 */
export const outdentedAfterEnd = (block: Line[], next: Line): boolean => {
  const prev = block[block.length - 1];
  if (!prev || block.length < 2 || !hasTerminalPunctuation(prev.text)) return false;
  const em = next.fontSize;
  return next.left <= prev.left - 0.8 * em && block.every((l) => Math.abs(l.left - prev.left) <= 0.3 * em);
};

/**
 * How many of a block's first lines sit at the item's text left: all of them, or those before a line back at the
 * item's marker after a sentence's end (the paragraph after the list, run into the item's wrapped lines) when the
 * item's last line ran full (a short one ended the item: the next paragraph's first line may be indented as far as
 * the item's text). Zero when the lines go on otherwise.
 */
const atItemText = (lines: readonly Line[], first: Line, last: Line): number => {
  const left = itemTextLeft(first);
  const at = (l: Line) => Math.abs(l.left - left) <= 0.6 * l.fontSize;
  const k = lines.findIndex((l) => !at(l));
  if (k === -1) return lines.length;
  const before = lines[k - 1];
  const back = lines[k];
  if (k === 0 || !before || !back || !hasTerminalPunctuation(before.text)) return 0;
  const full = last.right >= Math.max(...lines.slice(0, k + 1).map((l) => l.right)) - 2 * last.fontSize;
  return full && back.left < left - 0.8 * back.fontSize ? k : 0;
};

/**
 * A list item's first line may end with a sentence: a line under the item's text then started a block of its own,
 * as a paragraph's indented first line would. A text block right under an item, at the item's pitch and size, all
 * of its lines at the item's text left (a paragraph after a list goes back to the list's left edge on its next
 * lines), is the rest of that item.
 */
export const joinItemWraps = (blocks: Block[], stats: DocStats): Block[] => {
  const out: Block[] = [];
  for (const block of blocks) {
    const item = out[out.length - 1];
    const first = item?.lines[0];
    const last = item?.lines[item.lines.length - 1];
    const next = block.lines[0];
    const under =
      item?.kind === "text" &&
      block.kind === "text" &&
      first &&
      last &&
      next &&
      itemPrefixLength(first.text) > 0 &&
      itemPrefixLength(next.text) === 0 &&
      !DOTTED_ITEM_RE.test(next.text) &&
      Math.abs(next.fontSize - last.fontSize) <= 0.04 * last.fontSize &&
      next.baseline - last.baseline > 0 &&
      next.baseline - last.baseline <= 1.3 * stats.pitch(last.fontSize) + 1 &&
      atItemText(block.lines, first, last) > 0;
    if (!under) {
      out.push(block);
      continue;
    }
    const wrapped = atItemText(block.lines, first, last);
    const lines = [...item.lines, ...block.lines.slice(0, wrapped)];
    out[out.length - 1] = { ...union(lines), lines, kind: "text" };
    const rest = block.lines.slice(wrapped);
    if (rest.length) out.push({ ...union(rest), lines: rest, kind: "text" });
  }
  return out;
};
