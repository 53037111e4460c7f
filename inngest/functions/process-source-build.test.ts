import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { processSourceBuild } from "./process-source-build";

/**
 * The function's orchestration with every step mocked (the steps' domain functions have their own integration
 * tests): the order of steps and what indexing=none skips. The failure path (a step fails → the build is marked
 * failed) runs for real in server/public-api/sources-api.int.test.ts.
 */

const data = {
  buildId: "0b7c5e59-8d7a-4b52-9a38-3f1c3c2f9d10",
  projectId: "5d4a7a51-3a7e-4d0f-8e0c-9f5d0e8b1a22",
  sourceId: "9a0e1f2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
};
const event = { name: "source/build.requested", data };

const steps = (indexing: string, overrides: Record<string, () => unknown> = {}, kind = "ingest", small = false) => {
  const calls: string[] = [];
  const handler = (id: string, result: unknown) => () => {
    calls.push(id);
    return overrides[id] ? overrides[id]() : result;
  };
  return {
    calls,
    steps: [
      { id: "load", handler: handler("load", { ...data, indexing, kind, small }) },
      { id: "process-small", handler: handler("process-small", { status: "Completed" }) },
      { id: "acquire", handler: handler("acquire", { skipped: "nothing to fetch for an upload" }) },
      { id: "partition", handler: handler("partition", { elements: 3, pages: 1, warnings: 0 }) },
      { id: "enrich", handler: handler("enrich", { enriched: true, pages: 1, llmPages: 0 }) },
      { id: "reuse-elements", handler: handler("reuse-elements", { elements: 3 }) },
      { id: "chunk", handler: handler("chunk", { chunks: 2 }) },
      { id: "embed", handler: handler("embed", { embedded: 2, failedBatches: 0 }) },
      { id: "index", handler: handler("index", { indexed: indexing !== "none" }) },
      { id: "finalize", handler: handler("finalize", { status: "Completed" }) },
    ],
  };
};

const run = (mocked: ReturnType<typeof steps>) =>
  new InngestTestEngine({ function: processSourceBuild, events: [event], steps: mocked.steps }).execute();

describe("process-source-build", () => {
  it("runs load → acquire → partition → enrich → chunk → embed → index → finalize", async () => {
    const mocked = steps("full");
    const { result } = await run(mocked);
    expect(mocked.calls).toEqual(["load", "acquire", "partition", "enrich", "chunk", "embed", "index", "finalize"]);
    expect(result).toEqual({ buildId: data.buildId, status: "Completed" });
  });

  it("skips chunking and embedding with indexing=none", async () => {
    const mocked = steps("none");
    await run(mocked);
    expect(mocked.calls).toEqual(["load", "acquire", "partition", "enrich", "index", "finalize"]);
  });

  it("an index build re-uses its parent's elements instead of parsing and enriching again", async () => {
    const mocked = steps("full", {}, "index");
    const { result } = await run(mocked);
    expect(mocked.calls).toEqual(["load", "reuse-elements", "chunk", "embed", "index", "finalize"]);
    expect(result).toEqual({ buildId: data.buildId, status: "Completed" });
  });

  it("runs a small upload's whole build in its first step", async () => {
    const mocked = steps("full", {
      load: () => ({ ...data, indexing: "full", small: true, done: { status: "Completed" } }),
    });
    const { result } = await run(mocked);
    expect(mocked.calls).toEqual(["load"]);
    expect(result).toEqual({ buildId: data.buildId, status: "Completed" });
  });

  it("goes on with a step of its own for a small build whose load was stored before it did the whole build", async () => {
    const mocked = steps("full", {}, "ingest", true);
    const { result } = await run(mocked);
    expect(mocked.calls).toEqual(["load", "process-small"]);
    expect(result).toEqual({ buildId: data.buildId, status: "Completed" });
  });

  it("stops when the build was deleted before it started", async () => {
    const mocked = steps("full", { load: () => null });
    const { result } = await run(mocked);
    expect(mocked.calls).toEqual(["load"]);
    expect(result).toEqual({ buildId: data.buildId, status: "cancelled" });
  });
});
