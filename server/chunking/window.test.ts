import { describe, expect, it } from "vitest";
import type { ElementType, ParsedElement } from "../parsing/types";
import { chunkElements } from "./chunk";
import type { Chunk, ChunkOptions } from "./types";
import { chunkWindow } from "./window";

const el = (text: string, type: ElementType, pageNumber: number | null): ParsedElement => ({ type, text, pageNumber });

/** Sections, pages, headings at the foot of a page, elements longer than a chunk, blank ones. */
const document = (pages: boolean): ParsedElement[] =>
  Array.from({ length: 400 }, (_, i) => {
    const page = pages ? Math.floor(i / 17) + 1 : null;
    if (i % 23 === 0) return el(`Section ${i}`, "Title", page);
    if (i % 31 === 0) return el("   ", "NarrativeText", page);
    if (i % 41 === 0) return el(`Page header ${i}`, "Header", page);
    const words = i % 37 === 0 ? 600 : 20 + (i % 9) * 15;
    return el(Array.from({ length: words }, (_, j) => `w${i}x${j}`).join(" "), "NarrativeText", page);
  });

/** chunkWindow over windows of `size` elements, carrying what it hands back; indexes mapped to the document. */
const inWindows = (elements: ParsedElement[], options: ChunkOptions, size: number): Chunk[] => {
  const out: Chunk[] = [];
  let start = 0;
  let next = 0;
  let sectionBefore: string | null = null;
  while (start < elements.length) {
    next = Math.min(elements.length, Math.max(next, start) + size);
    const last = next === elements.length;
    const r = chunkWindow({ elements: elements.slice(start, next), options, sectionBefore, last });
    out.push(...r.chunks.map((c) => ({ ...c, elementIndexes: c.elementIndexes.map((i) => i + start) })));
    start += r.carryFrom;
    sectionBefore = r.section;
  }
  return out;
};

describe("chunkWindow", () => {
  for (const splitter of ["title", "character", "token"] as const) {
    for (const pages of [true, false]) {
      it(`makes the chunks of the whole document, window by window (${splitter}, ${pages ? "pages" : "no pages"})`, async () => {
        const elements = document(pages);
        const options: ChunkOptions = { splitter, chunkSize: 600, chunkOverlap: 80, elementsToRemove: ["Header"] };
        const whole = await chunkElements({ elements, options });
        for (const size of splitter === "token" ? [7] : [1, 7, 50, 1000])
          expect(inWindows(elements, options, size)).toEqual(whole);
      });
    }
  }
});
