import { runInNewContext } from "node:vm";
import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import { trimMemory } from "./memory-trim";

const gc = () => {
  v8.setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as () => void;
  v8.setFlagsFromString("--no-expose-gc");
  collect();
};

const rssMb = () => process.memoryUsage.rss() / 2 ** 20;

describe.runIf(process.platform === "linux")("trimMemory", () => {
  it("hands memory freed in small pieces back to the OS", async () => {
    expect(await trimMemory()).toBe(true);
    // 150 MB in 1 KB pieces: malloc serves them from its heap, and freeing them leaves the pages with malloc.
    let pieces: Buffer[] | null = Array.from({ length: 150_000 }, () => Buffer.allocUnsafeSlow(1024).fill(1));
    expect(pieces.length).toBe(150_000);
    pieces = null;
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200)); // frees finish on V8's sweeper threads
    const before = rssMb();
    expect(await trimMemory()).toBe(true);
    const after = rssMb();
    expect(before - after).toBeGreaterThan(60);
  });
});
