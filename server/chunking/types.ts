import type { ElementType } from "../parsing/types";

export const SPLITTERS = ["character", "token", "semantic", "title", "element"] as const;
export type Splitter = (typeof SPLITTERS)[number];

/** Chunking node options (contract §2.10); omitted sizes take the contract defaults. */
export type ChunkOptions = {
  splitter: Splitter;
  /** Characters (or tokens, for the token splitter) per chunk, overlap included. */
  chunkSize?: number;
  chunkOverlap?: number;
  chunkSeparator?: string;
  elementsToRemove?: readonly ElementType[];
};

export const CHUNK_DEFAULTS = { chunkSize: 1000, chunkOverlap: 200, chunkSeparator: "\n\n" } as const;

export type Chunk = {
  text: string;
  /** Page of the chunk's first element (null for formats without pages). */
  pageNumber: number | null;
  /** Indexes into the elements given to chunkElements, in document order. */
  elementIndexes: number[];
  metadata: Record<string, unknown>;
};
