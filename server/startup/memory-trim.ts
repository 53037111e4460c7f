import { logger } from "../logger";

/**
 * Hands memory that the process has freed back to the OS. glibc's malloc keeps freed memory inside its heaps unless
 * it lies at their very top, and compilers free a lot of it: starting the embedded Postgres alone (its wasm compiled
 * and optimized by V8 on background threads) left 95 MB of freed memory in the heap for good, and a large ingest
 * freed more than 1 GB in small pieces along the way. `malloc_trim(0)` returns every free page, wherever it lies
 * (idle app 375 -> 270 MB; a 100 MB upload's peak about 620 -> 560 MB at the same speed). It runs once a second on
 * libuv's thread pool (up to 60 ms during a large ingest, 20 ms in all per second of work), called through koffi,
 * whose npm package carries its prebuilt addon. Elsewhere (macOS, musl) this does nothing.
 */

const INTERVAL_MS = 1000;

type MallocTrim = { async: (pad: number, done: (error: unknown) => void) => void };

const loadTrim = async (): Promise<MallocTrim | null> => {
  if (process.platform !== "linux") return null;
  try {
    const { default: koffi } = await import("koffi");
    return koffi.load("libc.so.6").func("int malloc_trim(size_t pad)") as MallocTrim;
  } catch (error) {
    logger.debug({ err: error }, "malloc_trim is not available: freed memory stays with malloc");
    return null;
  }
};

let mallocTrim: Promise<MallocTrim | null> | null = null;
let running = false;

/** One trim, on the thread pool; false where there is no malloc_trim, or while the previous one still runs. */
export const trimMemory = async (): Promise<boolean> => {
  const trim = await (mallocTrim ??= loadTrim());
  if (!trim || running) return false;
  running = true;
  return new Promise((resolve) =>
    trim.async(0, () => {
      running = false;
      resolve(true);
    }),
  );
};

/** Starts the trims, for the life of the process (the launcher, first thing). */
export const startMemoryTrim = async (): Promise<void> => {
  if (!(await trimMemory())) return;
  setInterval(() => void trimMemory(), INTERVAL_MS).unref();
};
