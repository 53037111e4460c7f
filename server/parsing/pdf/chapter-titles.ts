import type { BoundingBox, ParsedElement } from "../types";

/**
 * A chapter's opening title is often set in parts: a letter-spaced label ("C H A P T E R", "P A R T 2"), a large
 * number, the title, and a subtitle after a colon ("Physical Development:" / "The Brain, Body …"). Each part is a
 * heading by its size, but together they are one heading. A letter-spaced label, or a label alone on its line
 * ("Chapter 3" over "Operations", as LaTeX's report and book classes set it), takes the heading right after it, and
 * then, while the title so far ends in a colon, the next heading too (on the same page).
 */

/** Three or more single capitals separated by spaces, with an optional number: a word set letter-spaced. */
const LETTER_SPACED = /^(?:\p{Lu}[ \t]){2,}\p{Lu}(?:[ \t]+[\dIVXLC]{1,4})?$/u;
/** A chapter's label on a line of its own: "Chapter 3", "Part II", "Appendix A". */
const CHAPTER_LABEL = /^(?:chapter|part|appendix)[ \t]+(?:\d{1,3}|[IVXLC]{1,5}|[A-Z])$/iu;

const union = (a: BoundingBox, b: BoundingBox): BoundingBox => {
  const left = Math.min(a.left, b.left);
  const top = Math.min(a.top, b.top);
  const right = Math.max(a.left + a.width, b.left + b.width);
  const bottom = Math.max(a.top + a.height, b.top + b.height);
  return { left, top, width: right - left, height: bottom - top };
};

const takesNext = (title: ParsedElement, next: ParsedElement | undefined, label: boolean): next is ParsedElement =>
  next !== undefined &&
  next.type === "Title" &&
  next.pageNumber === title.pageNumber &&
  (label || title.text.trimEnd().endsWith(":"));

export const joinChapterTitles = (elements: ParsedElement[]): ParsedElement[] => {
  const out: ParsedElement[] = [];
  for (let i = 0; i < elements.length; i++) {
    const first = elements[i];
    if (!first) continue;
    const opening = first?.text.trim() ?? "";
    if (first.type !== "Title" || !(LETTER_SPACED.test(opening) || CHAPTER_LABEL.test(opening))) {
      out.push(first);
      continue;
    }
    let title = first;
    let label = true;
    while (takesNext(title, elements[i + 1], label)) {
      const next = elements[++i] as ParsedElement;
      const box =
        title.boundingBox && next.boundingBox ? union(title.boundingBox, next.boundingBox) : title.boundingBox;
      title = { ...title, text: `${title.text} ${next.text}`, boundingBox: box };
      label = false;
    }
    out.push(title);
  }
  return out;
};
