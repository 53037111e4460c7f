import { isSentenceLike } from "../classify-text";
import type { ParsedElement } from "../types";

/**
 * A letter enumerates a list only once: items in a row that open with the same letter ("M. Gaëtan Gagné", "M. David
 * Huggins-Daines": an honorific; "J. Smith", "J. Doe": initials) are names, not list items. Retyped from their wording.
 */

const LETTER_RE = /^\(?([A-Za-z])[.)]\s/;

const letterOf = (e: ParsedElement) => (e.type === "ListItem" ? (LETTER_RE.exec(e.text)?.[1] ?? null) : null);

export const untypeRepeatedLetters = (elements: readonly ParsedElement[]): ParsedElement[] => {
  const letters = elements.map(letterOf);
  return elements.map((e, i) => {
    const letter = letters[i];
    if (!letter || (letters[i - 1] !== letter && letters[i + 1] !== letter)) return e;
    return { ...e, type: isSentenceLike(e.text) ? "NarrativeText" : "UncategorizedText" };
  });
};
