import type { ParsedElement } from "./types";

/**
 * Figures go into the fast parse's reading order: before the first element of the same page that starts below the
 * figure's top and overlaps it horizontally; otherwise at the end of the page.
 */
export const mergeFigures = (elements: ParsedElement[], figures: ParsedElement[]): ParsedElement[] => {
  if (figures.length === 0) return elements;
  const out = [...elements];
  for (const figure of figures) {
    const box = figure.boundingBox;
    const samePage = (e: ParsedElement) => e.pageNumber === figure.pageNumber;
    let at = out.findIndex(
      (e) =>
        samePage(e) &&
        box &&
        e.boundingBox &&
        e.boundingBox.top >= box.top &&
        e.boundingBox.left < box.left + box.width &&
        e.boundingBox.left + e.boundingBox.width > box.left,
    );
    if (at < 0) {
      const lastOfPage = out.findLastIndex((e) => e.pageNumber !== null && e.pageNumber <= (figure.pageNumber ?? 0));
      at = lastOfPage + 1;
    }
    out.splice(at, 0, figure);
  }
  return out;
};

/**
 * Whether a PDF holds any image XObject. Streams are never packed into object streams, so an image's dictionary is
 * always plain text in the file: without `/Subtype /Image` there is no picture to cut out, and the costly operator
 * list walk of every page is skipped (it more than doubled the time of fast on text-only papers).
 */
export const hasImageObjects = (bytes: Uint8Array): boolean =>
  /\/Subtype\s*\/Image\b/.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
