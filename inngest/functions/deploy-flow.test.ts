import { InngestTestEngine } from "@inngest/test";
import { expect, it } from "vitest";
import { deployFlow } from "./deploy-flow";

/**
 * The deploy's orchestration with its steps mocked (they run for real, crash and failure included, in
 * server/flows/flows-deploy.int.test.ts): one step per chunking node, then the switch of traffic.
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
      step("plan", ["chunking-1764000000001", "chunking-1764000000002"]),
      step("chunking-chunking-1764000000001", { chunkSets: 2 }),
      step("chunking-chunking-1764000000002", { chunkSets: 2 }),
      step("activate", { status: "ready" }),
    ],
  }).execute();
  expect(calls).toEqual(["plan", "chunking-chunking-1764000000001", "chunking-chunking-1764000000002", "activate"]);
  expect(result).toEqual({ revisionId: data.revisionId, status: "ready" });
});
