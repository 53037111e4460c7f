import { describe, expect, it } from "vitest";
import { sleepDelayMs } from "./inngest-sdk";
import { backoffMs, wait } from "./timing";

describe("sleepDelayMs", () => {
  it("reads the SDK's duration strings and ISO deadlines", () => {
    expect(sleepDelayMs("1s")).toBe(1000);
    expect(sleepDelayMs("2h30m10s")).toBe(9_010_000);
    expect(sleepDelayMs("1w1d")).toBe(691_200_000);
    expect(sleepDelayMs(new Date(5000).toISOString(), 2000)).toBe(3000);
    expect(sleepDelayMs(new Date(0).toISOString(), 2000)).toBe(0);
    expect(sleepDelayMs("")).toBe(0);
  });
});

describe("backoffMs", () => {
  it("doubles from the base, with at most 20 % jitter, and stops at the cap", () => {
    const b = { baseMs: 1000, maxMs: 10_000 };
    for (const [n, low] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
    ] as const) {
      const d = backoffMs(n, b);
      expect(d).toBeGreaterThanOrEqual(low);
      expect(d).toBeLessThanOrEqual(low * 1.2);
    }
    expect(backoffMs(20, b)).toBe(10_000);
  });
});

describe("wait", () => {
  it("ends early, with false, when aborted", async () => {
    const controller = new AbortController();
    const pending = wait(60_000, controller.signal);
    controller.abort();
    expect(await pending).toBe(false);
    expect(await wait(1, new AbortController().signal)).toBe(true);
  });
});
