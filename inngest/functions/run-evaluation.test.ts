import { InngestTestEngine } from "@inngest/test";
import { expect, it } from "vitest";
import { runEvaluation } from "./run-evaluation";

/**
 * The evaluation job's orchestration with its steps mocked (the steps run for real in
 * server/evaluation/evaluation.int.test.ts and, through the job runner, evaluation-api.int.test.ts): one step per
 * batch of cases, then the aggregates; a cancelled batch ends the loop.
 */

const data = { runId: "0b7c5e59-8d7a-4b52-9a38-3f1c3c2f9d10", projectId: "5d4a7a51-3a7e-4d0f-8e0c-9f5d0e8b1a22" };
const event = { name: "evaluation/run.requested", data };

/** Runs the job over mocked steps and returns the ids of the steps it called, in order, and its result. */
const run = async (steps: [id: string, result: unknown][]) => {
  const calls: string[] = [];
  const { result } = await new InngestTestEngine({
    function: runEvaluation,
    events: [event],
    steps: steps.map(([id, value]) => ({ id, handler: () => (calls.push(id), value) })),
  }).execute();
  return { calls, result };
};

it("evaluates each batch of cases, then finishes the run", async () => {
  const steps: [string, unknown][] = [
    ["plan", { batches: 3 }],
    ["batch-0", { cancelled: false, cases: 10 }],
    ["batch-1", { cancelled: false, cases: 10 }],
    ["batch-2", { cancelled: false, cases: 4 }],
    ["finish", { status: "completed" }],
  ];
  const { calls, result } = await run(steps);
  expect(calls).toEqual(steps.map(([id]) => id));
  expect(result).toEqual({ runId: data.runId, status: "completed" });
});

it("stops at a cancelled batch and keeps what was evaluated", async () => {
  const { calls, result } = await run([
    ["plan", { batches: 3 }],
    ["batch-0", { cancelled: false, cases: 10 }],
    ["batch-1", { cancelled: true }],
    ["batch-2", { cancelled: false, cases: 4 }],
    ["finish", { status: "cancelled" }],
  ]);
  // batch-2 is offered but never called: the loop ends at the cancelled batch.
  expect(calls).toEqual(["plan", "batch-0", "batch-1", "finish"]);
  expect(result).toEqual({ runId: data.runId, status: "cancelled" });
});
