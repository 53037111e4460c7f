import { isSentenceLike } from "../classify-text";
import type { ParsedElement } from "../types";

/**
 * A contents list whose first-level entries have no dot leaders (LaTeX sets them in bold, with the page number
 * only): an entry such as "1 Document structures 1" looks like a heading by its font. A line set as a heading that
 * ends in a page number, next to an entry with dot leaders ("1.1 Mathematics . . . . 1"), is an entry of the
 * contents, not the section's heading.
 */

/** Ends in a page number after a word: "1 Document structures 1", "Introduction 3". */
const ENTRY_RE = /\p{L}\S*[ \t]+\d{1,4}$/u;
/** A contents entry's dot leaders before its page number: "1.1 Mathematics . . . . 1". */
const LEADERS_RE = /(?:\.[ \t]?){3,}[ \t]*\d{1,4}$/;

export const untypeContentsEntries = (elements: readonly ParsedElement[]): ParsedElement[] =>
  elements.map((e, i) => {
    if (e.type !== "Title" || !ENTRY_RE.test(e.text.trim())) return e;
    const beside = [elements[i - 1], elements[i + 1]].filter((n) => n?.pageNumber === e.pageNumber);
    if (!beside.some((n) => n && LEADERS_RE.test(n.text.trim()))) return e;
    return { ...e, type: isSentenceLike(e.text) ? "NarrativeText" : "UncategorizedText" };
  });
