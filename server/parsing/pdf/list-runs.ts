import type { ElementType, ParsedElement } from "../types";

/**
 * A slide's agenda sets its items as large as headings ("1. Short intro", "2. Advantages", "3. Future"). Three or
 * more headings in a row, nothing but page furniture between them, numbered one after another at one level ("1.",
 * "2.", "3." or "a)", "b)", "c)"), are the items of a numbered list: section headings have their sections' text
 * between them, and subsections are numbered at two levels ("2.1").
 */

const ORDINAL_RE = /^(\d{1,2}|[a-z])[.)][ \t]+\S/i;
const MIN_RUN = 3;
const FURNITURE: ReadonlySet<ElementType> = new Set(["Header", "Footer", "PageNumber"]);

const ordinalOf = (e: ParsedElement): number | null => {
  if (e.type !== "Title") return null;
  const marker = ORDINAL_RE.exec(e.text)?.[1];
  if (!marker) return null;
  return /\d/.test(marker) ? Number(marker) : marker.toLowerCase().charCodeAt(0) - 96;
};

export const numberedHeadingRunsAsItems = (elements: readonly ParsedElement[]): ParsedElement[] => {
  const out = [...elements];
  let run: number[] = [];
  const close = () => {
    if (run.length >= MIN_RUN) for (const i of run) out[i] = { ...(out[i] as ParsedElement), type: "ListItem" };
    run = [];
  };
  elements.forEach((e, i) => {
    if (FURNITURE.has(e.type)) return;
    const n = ordinalOf(e);
    const last = run[run.length - 1];
    const previous = last === undefined ? null : ordinalOf(elements[last] as ParsedElement);
    if (n !== null && previous !== null && n === previous + 1) {
      run.push(i);
      return;
    }
    close();
    if (n !== null) run.push(i);
  });
  close();
  return out;
};
