import type { ParsedElement } from "../types";

/**
 * A figure or table caption is one element however its lines were laid out. Its last lines can land in a block of
 * their own: a short last line that fits in one column of a two-column page is read with that column, and a line
 * after a hyphen ("Ef-" / "fects") is then cut from its word. A text element right under a caption, in the caption's
 * type size, continues it.
 */

const CONTINUING: ReadonlySet<string> = new Set(["NarrativeText", "UncategorizedText", "Title"]);

const fontSize = (e: ParsedElement) => Number(e.metadata?.font_size ?? 0);

/** A row of figures (a table's row read as text) under a table's caption is not the caption's. */
const isFigures = (text: string) => {
  const words = text.split(/\s+/);
  const numbers = words.filter((w) => /^[-+(]?\d[\d.,%)]*$/.test(w)).length;
  return numbers >= 3 && numbers >= 0.3 * words.length;
};

const continues = (caption: ParsedElement, next: ParsedElement): boolean => {
  const a = caption.boundingBox;
  const b = next.boundingBox;
  if (!a || !b || caption.pageNumber !== next.pageNumber || !CONTINUING.has(next.type)) return false;
  if (isFigures(next.text)) return false;
  const size = fontSize(caption);
  if (size <= 0 || Math.abs(fontSize(next) - size) > 0.25) return false;
  // Right under it: the gap is a line's leading, not a paragraph's space; and it starts within the caption's width.
  const gap = b.top - (a.top + a.height);
  return gap >= -0.2 * size && gap <= 0.6 * size && b.left >= a.left - size && b.left <= a.left + a.width;
};

/** Two pieces of one text: a hyphen at the end before a lower-case letter is a word broken in two. */
const joinText = (a: string, b: string) =>
  /\p{L}-$/u.test(a) && /^\p{Ll}/u.test(b) ? a.slice(0, -1) + b : `${a} ${b}`;

export const joinCaptions = (elements: readonly ParsedElement[]): ParsedElement[] => {
  const out: ParsedElement[] = [];
  for (const e of elements) {
    const last = out[out.length - 1];
    if (last?.type !== "FigureCaption" || !continues(last, e)) {
      out.push(e);
      continue;
    }
    const a = last.boundingBox;
    const b = e.boundingBox;
    const right = Math.max((a?.left ?? 0) + (a?.width ?? 0), (b?.left ?? 0) + (b?.width ?? 0));
    const bottom = Math.max((a?.top ?? 0) + (a?.height ?? 0), (b?.top ?? 0) + (b?.height ?? 0));
    const left = Math.min(a?.left ?? 0, b?.left ?? 0);
    const top = Math.min(a?.top ?? 0, b?.top ?? 0);
    out[out.length - 1] = {
      ...last,
      text: joinText(last.text, e.text),
      boundingBox: { left, top, width: right - left, height: bottom - top },
    };
  }
  return out;
};
