import type { ParsedElement } from "../parsing/types";
import { charLength, defaultSeparators, splitText, tailOf, tokenLength, type LengthFn } from "./text-splitter";
import { CHUNK_DEFAULTS, type Chunk, type ChunkOptions, type Splitter } from "./types";

/**
 * Elements into chunks for embedding and search. Elements are the units: they are packed whole (tables stay whole
 * when they fit) and only an element longer than the size is split inside, by the recursive text splitter. A chunk
 * never mixes two pages (unless it holds only a heading, which belongs with what follows) nor, for the title
 * splitter, two sections. Overlap repeats the end of the previous chunk of the same page or section.
 */

type Unit = { text: string; index: number; element: ParsedElement };
type Group = { units: Unit[]; section: string | null; titlesOnly: boolean };

type Settings = {
  splitter: Splitter;
  chunkSize: number;
  chunkOverlap: number;
  chunkSeparator: string;
  length: LengthFn;
};

const settingsOf = (options: ChunkOptions): Settings => {
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

const isTitle = (u: Unit) => u.element.type === "Title";

/**
 * Stretches that a chunk must not cross. Every splitter breaks at page changes; the title splitter also at every
 * Title. A heading at the foot of a page stays with the text after it.
 */
const groupUnits = (units: Unit[], bySection: boolean): Group[] => {
  const groups: Group[] = [];
  let section: string | null = null;
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

const makeChunk = (parts: Unit[], text: string, settings: Settings, section: string | null, split: boolean): Chunk => {
  const indexes = [...new Set(parts.map((u) => u.index))].sort((a, b) => a - b);
  const types = [...new Set(parts.map((u) => u.element.type))];
  const metadata: Record<string, unknown> = { splitter: settings.splitter, element_types: types };
  if (section !== null) metadata.section_title = section;
  if (split) metadata.split_element = true;
  const only = parts.length === 1 ? parts[0]?.element : undefined;
  if (only?.type === "Table" && only.html) metadata.text_as_html = only.html;
  return { text, pageNumber: parts[0]?.element.pageNumber ?? null, elementIndexes: indexes, metadata };
};

/** Pack one group's units into chunks. */
const packGroup = (group: Group, settings: Settings): Chunk[] => {
  const { chunkSize, chunkOverlap, chunkSeparator, length } = settings;
  const sepLength = length(chunkSeparator);
  const chunks: Chunk[] = [];
  let parts: Unit[] = [];
  let texts: string[] = [];
  let total = 0;
  let previous: { text: string; unit: Unit } | null = null;

  const flush = () => {
    if (parts.length === 0) return;
    const text = texts.join(chunkSeparator);
    chunks.push(makeChunk(parts, text, settings, group.section, false));
    previous = { text: texts[texts.length - 1] ?? "", unit: parts[parts.length - 1] ?? (parts[0] as Unit) };
    parts = [];
    texts = [];
    total = 0;
  };

  /** Start a chunk with the end of the previous one, if room is left for the unit that follows. */
  const startWithOverlap = (nextLength: number) => {
    if (!previous || chunkOverlap === 0) return;
    const room = Math.min(chunkOverlap, chunkSize - nextLength - sepLength);
    const tail = tailOf(previous.text, room, length);
    if (!tail) return;
    parts.push(previous.unit);
    texts.push(tail);
    total = length(tail);
  };

  for (const unit of group.units) {
    const size = length(unit.text);
    if (size > chunkSize) {
      flush();
      const pieces = splitText({
        text: unit.text,
        chunkSize,
        chunkOverlap,
        length,
        separators: defaultSeparators(chunkSeparator),
      });
      for (const piece of pieces) chunks.push(makeChunk([unit], piece, settings, group.section, pieces.length > 1));
      const last = pieces[pieces.length - 1];
      previous = last ? { text: last, unit } : previous;
      continue;
    }
    if (parts.length > 0 && total + sepLength + size > chunkSize) {
      flush();
      startWithOverlap(size);
    }
    parts.push(unit);
    texts.push(unit.text);
    total += size + (texts.length > 1 ? sepLength : 0);
  }
  flush();
  return chunks;
};

const elementChunks = (units: Unit[], settings: Settings): Chunk[] =>
  units.flatMap((unit) => {
    if (settings.length(unit.text) <= settings.chunkSize) return [makeChunk([unit], unit.text, settings, null, false)];
    const pieces = splitText({
      text: unit.text,
      chunkSize: settings.chunkSize,
      chunkOverlap: settings.chunkOverlap,
      length: settings.length,
      separators: defaultSeparators(settings.chunkSeparator),
    });
    return pieces.map((piece) => makeChunk([unit], piece, settings, null, pieces.length > 1));
  });

export const chunkElements = ({ elements, options }: { elements: ParsedElement[]; options: ChunkOptions }): Chunk[] => {
  const settings = settingsOf(options);
  const removed = new Set<string>(options.elementsToRemove ?? []);
  const units: Unit[] = elements
    .map((element, index) => ({ element, index, text: element.text.trim() }))
    .filter((u) => u.text.length > 0 && !removed.has(u.element.type));

  switch (settings.splitter) {
    case "element":
      return elementChunks(units, settings);
    case "title":
    // Semantic splitting (breaks where embeddings of neighbouring sentences diverge) is not built yet; sections
    // are the closest structural stand-in until then.
    case "semantic":
      return groupUnits(units, true).flatMap((g) => packGroup(g, settings));
    case "character":
    case "token":
      return groupUnits(units, false).flatMap((g) => packGroup(g, settings));
  }
};
