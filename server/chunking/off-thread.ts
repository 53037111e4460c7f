import { runOffThread } from "../concurrency/cpu-thread";
import type { ParsedElement } from "../parsing/types";
import type { Chunk, ChunkOptions } from "./types";

/** Chunking is CPU work over the whole document: done in the worker thread, not on the one serving requests. */
export const chunkOffThread = (input: { elements: ParsedElement[]; options: ChunkOptions }) =>
  runOffThread<Chunk[]>("server/chunking/thread.ts", "chunkElements", [input]);
