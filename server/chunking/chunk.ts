import type { Embedder } from "../providers/embedding/types";
import type { ParsedElement } from "../parsing/types";
import { semanticChunks } from "./semantic";
import { defaultSeparators, splitText, tailOf } from "./text-splitter";
import type { Chunk, ChunkOptions } from "./types";
import { groupUnits, makeChunk, settingsOf, toUnits, type Group, type Settings, type Unit } from "./units";

/**
 * Elements into chunks for embedding and search. Elements are the units: they are packed whole (tables stay whole
 * when they fit) and only an element longer than the size is split inside, by the recursive text splitter. A chunk
 * never mixes two pages (unless it holds only a heading, which belongs with what follows) nor, for the title
 * splitter, two sections. Overlap repeats the end of the previous chunk of the same page or section. The semantic
 * splitter (./semantic.ts) packs sentences instead and breaks where the topic changes.
 */

/** Pack one group's units into chunks. */
export const packGroup = (group: Group, settings: Settings): Chunk[] => {
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

/**
 * Chunks for one set of elements. Async because the semantic splitter embeds sentences, with the given embedder or
 * else the configured one; the other splitters need no embedder.
 */
export const chunkElements = async ({
  elements,
  options,
  embedder,
}: {
  elements: ParsedElement[];
  options: ChunkOptions;
  embedder?: Embedder;
}): Promise<Chunk[]> => {
  const settings = settingsOf(options);
  const units = toUnits(elements, options.elementsToRemove);
  switch (settings.splitter) {
    case "element":
      return elementChunks(units, settings);
    case "title":
      return groupUnits(units, true).flatMap((g) => packGroup(g, settings));
    case "semantic":
      return semanticChunks({ units, settings, embedder: embedder ?? (await configuredEmbedder()) });
    case "character":
    case "token":
      return groupUnits(units, false).flatMap((g) => packGroup(g, settings));
  }
};

/** Loaded only when needed: the configured embedder reads the environment. */
const configuredEmbedder = async () => (await import("../providers/embedding")).getEmbedder();
