import type { ParsedElement } from "../parsing/types";
import { packGroup } from "./chunk";
import type { Chunk, ChunkOptions } from "./types";
import { groupUnits, settingsOf, toUnits } from "./units";

/**
 * Chunks of a long document read a window of elements at a time, so that neither its elements nor its chunks are
 * ever all in memory. A chunk never crosses a group (a page, or a section for the title splitter), and only the last
 * group of a window can still grow, so every group but the last is chunked and the last one's elements are carried
 * into the next window: the chunks are the ones chunkElements makes of the whole document. A last group longer than
 * MAX_CARRY_CHARS (a document without headings or pages) is chunked where the window ends instead.
 * For the title, character and token splitters (semantic and element chunking keep to chunkElements).
 */

const MAX_CARRY_CHARS = 4 * 1024 * 1024;

export type WindowResult = {
  /** Chunks of the finished groups; `elementIndexes` index the window's elements. */
  chunks: Chunk[];
  /** Index of the first element to hand back with the next window (elements.length: none). */
  carryFrom: number;
  /** The section in force before the carried elements: the next window's `sectionBefore`. */
  section: string | null;
};

export const chunkWindow = ({
  elements,
  options,
  sectionBefore,
  last,
}: {
  elements: ParsedElement[];
  options: ChunkOptions;
  sectionBefore: string | null;
  /** No elements follow. */
  last: boolean;
}): WindowResult => {
  const settings = settingsOf(options);
  if (settings.splitter === "semantic" || settings.splitter === "element") {
    throw new Error(`chunkWindow does not chunk with the ${settings.splitter} splitter`);
  }
  const bySection = settings.splitter === "title";
  const groups = groupUnits(toUnits(elements, options.elementsToRemove), bySection, sectionBefore);
  const open = last ? undefined : groups.at(-1);
  const carry = open && open.units.reduce((n, u) => n + u.text.length, 0) <= MAX_CARRY_CHARS ? open : undefined;
  const done = carry ? groups.slice(0, -1) : groups;
  const final = done.at(-1);
  return {
    chunks: done.flatMap((g) => packGroup(g, settings)),
    carryFrom: carry ? carry.units[0]!.index : elements.length,
    section: carry ? carry.section : (final?.section ?? sectionBefore),
  };
};
