import { InngestTestEngine } from "@inngest/test";
import { expect, it } from "vitest";
import { deployFlow } from "./deploy-flow";

/**
 * The deploy's orchestration with its steps mocked (they run for real, crash and failure included, in
 * server/flows/flows-deploy.int.test.ts): one step per chunking node, the index nodes' build steps until one says
 * done, then the switch of traffic.
 */

const data = {
  revisionId: "0b7c5e59-8d7a-4b52-9a38-3f1c3c2f9d10",
  projectId: "5d4a7a51-3a7e-4d0f-8e0c-9f5d0e8b1a22",
  flowId: "9a0e1f2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
};

it("builds each chunking node's chunk sets, then activates the revision", async () => {
  const calls: string[] = [];
  const step = (id: string, result: unknown) => ({ id, handler: () => (calls.push(id), result) });
  const { result } = await new InngestTestEngine({
    function: deployFlow,
    events: [{ name: "flow/deploy.requested", data }],
    steps: [
      step("plan", { chunking: ["chunking-1764000000001", "chunking-1764000000002"], indexes: [] }),
      step("chunking-chunking-1764000000001", { chunkSets: 2 }),
      step("chunking-chunking-1764000000002", { chunkSets: 2 }),
      step("activate", { status: "ready" }),
    ],
  }).execute();
  expect(calls).toEqual(["plan", "chunking-chunking-1764000000001", "chunking-chunking-1764000000002", "activate"]);
  expect(result).toEqual({ revisionId: data.revisionId, status: "ready" });
});

it("builds an index node one step at a time until it is done, then activates", async () => {
  const calls: string[] = [];
  const step = (id: string, result: unknown) => ({ id, handler: () => (calls.push(id), result) });
  const node = "graph-rag-1764000000003";
  const { result } = await new InngestTestEngine({
    function: deployFlow,
    events: [{ name: "flow/deploy.requested", data }],
    steps: [
      step("plan", { chunking: ["chunking-1764000000001"], indexes: [node] }),
      step("chunking-chunking-1764000000001", { chunkSets: 1 }),
      step(`index-${node}`, { indexId: "i", status: "building" }),
      step(`index-${node}-0`, { done: false, progress: 40, step: "extract 1/2" }),
      step(`index-${node}-1`, { done: true, progress: 100, step: "ready" }),
      step("activate", { status: "ready" }),
    ],
  }).execute();
  expect(calls).toEqual([
    "plan",
    "chunking-chunking-1764000000001",
    `index-${node}`,
    `index-${node}-0`,
    `index-${node}-1`,
    "activate",
  ]);
  expect(result).toEqual({ revisionId: data.revisionId, status: "ready" });
});
