/**
 * What the CPU thread runs of chunking (concurrency/cpu-thread.ts loads this module by its path): a whole document, or one
 * window of a large one. Nothing imports it, so chunk.ts and window.ts need not import each other.
 */
export { chunkElements } from "./chunk";
export { chunkWindow } from "./window";
