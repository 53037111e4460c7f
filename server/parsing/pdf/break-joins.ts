import type { ElementType, ParsedElement } from "../types";

/** Page furniture: what may stand between an element broken by a page break and its rest. */
export const FURNITURE: ReadonlySet<ElementType> = new Set(["Header", "Footer", "PageNumber"]);

/** The last page an element reaches (its `page_numbers` once joined across a break). */
export const lastPage = (e: ParsedElement): number =>
  (e.metadata?.page_numbers as number[] | undefined)?.at(-1) ?? e.pageNumber ?? 0;

export const fontSize = (e: ParsedElement): number => (e.metadata?.font_size as number | undefined) ?? 0;

/**
 * Elements of `type` broken by a page or column break, joined with their rest: the last open one (only furniture
 * after it) takes the next element when `goesOn` says so, as `joined` makes them one.
 */
export const joinAcrossBreaks = (
  elements: readonly ParsedElement[],
  type: ElementType,
  goesOn: (open: ParsedElement, next: ParsedElement) => boolean,
  joined: (open: ParsedElement, rest: ParsedElement) => ParsedElement,
): ParsedElement[] => {
  const out: ParsedElement[] = [];
  let at = -1;
  for (const e of elements) {
    const open = out[at];
    if (open && goesOn(open, e)) {
      out[at] = joined(open, e);
      continue;
    }
    if (!FURNITURE.has(e.type)) at = e.type === type ? out.length : -1;
    out.push(e);
  }
  return out;
};
