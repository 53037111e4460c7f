import type { ParsedElement } from "../parsing/types";
import { charLength, tokenLength, type LengthFn } from "./text-splitter";
import { CHUNK_DEFAULTS, type Chunk, type ChunkOptions, type Splitter } from "./types";

/** What every splitter shares: elements as units, page/section groups, settings and the chunk record. */

export type Unit = { text: string; index: number; element: ParsedElement };
export type Group = { units: Unit[]; section: string | null; titlesOnly: boolean };

export type Settings = {
  splitter: Splitter;
  chunkSize: number;
  chunkOverlap: number;
  chunkSeparator: string;
  length: LengthFn;
};

export const settingsOf = (options: ChunkOptions): Settings => {
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? CHUNK_DEFAULTS.chunkSize));
  const overlap = Math.floor(options.chunkOverlap ?? CHUNK_DEFAULTS.chunkOverlap);
  return {
    splitter: options.splitter,
    chunkSize,
    // The contract allows 0..chunkSize-1; anything else would make chunks that never advance.
    chunkOverlap: Math.min(Math.max(0, overlap), chunkSize - 1),
    chunkSeparator: options.chunkSeparator ?? CHUNK_DEFAULTS.chunkSeparator,
    length: options.splitter === "token" ? tokenLength : charLength,
  };
};

export const toUnits = (elements: ParsedElement[], elementsToRemove: readonly string[] = []): Unit[] => {
  const removed = new Set<string>(elementsToRemove);
  return elements
    .map((element, index) => ({ element, index, text: element.text.trim() }))
    .filter((u) => u.text.length > 0 && !removed.has(u.element.type));
};

export const isTitle = (u: Unit) => u.element.type === "Title";

/**
 * Stretches that a chunk must not cross. Every splitter breaks at page changes; the title splitter also at every
 * Title. A heading at the foot of a page stays with the text after it. `sectionBefore`: the section the units start
 * in, when they continue a document (window.ts).
 */
export const groupUnits = (units: Unit[], bySection: boolean, sectionBefore: string | null = null): Group[] => {
  const groups: Group[] = [];
  let section: string | null = sectionBefore;
  const open = (first: Unit[]) => {
    groups.push({ units: first, section: bySection ? section : null, titlesOnly: first.every(isTitle) });
  };
  for (const unit of units) {
    const current: Group | undefined = groups[groups.length - 1];
    const last = current?.units[current.units.length - 1];
    const onlyTitles = current?.titlesOnly ?? false;
    const pageChange = last !== undefined && unit.element.pageNumber !== last.element.pageNumber && !onlyTitles;
    const sectionStart = bySection && isTitle(unit) && !onlyTitles;
    if (bySection && isTitle(unit) && (sectionStart || !current)) section = unit.text;
    if (current && pageChange && !sectionStart) {
      // Headings at the foot of a page introduce what follows; they move to the next page's group.
      const carried: Unit[] = [];
      while (current.units.length > 1 && isTitle(current.units[current.units.length - 1] as Unit)) {
        carried.unshift(current.units.pop() as Unit);
      }
      open([...carried, unit]);
    } else if (!current || pageChange || sectionStart) {
      open([unit]);
    } else {
      current.units.push(unit);
      current.titlesOnly &&= isTitle(unit);
    }
  }
  return groups;
};

export const makeChunk = (
  parts: Unit[],
  text: string,
  settings: Settings,
  section: string | null,
  split: boolean,
): Chunk => {
  const indexes = [...new Set(parts.map((u) => u.index))].sort((a, b) => a - b);
  const types = [...new Set(parts.map((u) => u.element.type))];
  const metadata: Record<string, unknown> = { splitter: settings.splitter, element_types: types };
  if (section !== null) metadata.section_title = section;
  if (split) metadata.split_element = true;
  const only = parts.length === 1 ? parts[0]?.element : undefined;
  if (only?.type === "Table" && only.html) metadata.text_as_html = only.html;
  return { text, pageNumber: parts[0]?.element.pageNumber ?? null, elementIndexes: indexes, metadata };
};
