import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { atRest, restingState } from "./at-rest";

describe("atRest", () => {
  it("is true for a process with nothing left running", async () => {
    expect(await atRest(restingState())).toBe(true);
  });

  it("is false while a timer a job started is still pending", async () => {
    const baseline = restingState();
    const timer = setInterval(() => undefined, 60_000);
    try {
      expect(await atRest(baseline)).toBe(false);
    } finally {
      clearInterval(timer);
    }
  });

  it("is false while a thread a job started keeps a CPU busy", async () => {
    const baseline = restingState();
    const spinner = new Worker("for (;;) {}", { eval: true });
    spinner.unref();
    try {
      await new Promise((r) => spinner.once("online", r));
      // Worker threads are not among the resources Node lists: only the CPU they use gives them away.
      expect(await atRest({ ...baseline, handles: restingState().handles })).toBe(false);
    } finally {
      await spinner.terminate();
    }
  });
});
