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

it("evaluates each batch of cases, then finishes the run", async () => {
  const calls: string[] = [];
  const step = (id: string, result: unknown) => ({ id, handler: () => (calls.push(id), result) });
  const { result } = await new InngestTestEngine({
    function: runEvaluation,
    events: [event],
    steps: [
      step("plan", { batches: 3 }),
      step("batch-0", { cancelled: false, cases: 10 }),
      step("batch-1", { cancelled: false, cases: 10 }),
      step("batch-2", { cancelled: false, cases: 4 }),
      step("finish", { status: "completed" }),
    ],
  }).execute();
  expect(calls).toEqual(["plan", "batch-0", "batch-1", "batch-2", "finish"]);
  expect(result).toEqual({ runId: data.runId, status: "completed" });
});

it("stops at a cancelled batch and keeps what was evaluated", async () => {
  const calls: string[] = [];
  const step = (id: string, result: unknown) => ({ id, handler: () => (calls.push(id), result) });
  const { result } = await new InngestTestEngine({
    function: runEvaluation,
    events: [event],
    steps: [
      step("plan", { batches: 3 }),
      step("batch-0", { cancelled: false, cases: 10 }),
      step("batch-1", { cancelled: true }),
      step("finish", { status: "cancelled" }),
    ],
  }).execute();
  expect(calls).toEqual(["plan", "batch-0", "batch-1", "finish"]);
  expect(result).toEqual({ runId: data.runId, status: "cancelled" });
});
