import { InngestTestEngine } from "@inngest/test";
import { expect, it } from "vitest";
import { deliverWebhook } from "./deliver-webhook";

/**
 * The delivery job's orchestration with its steps mocked (the attempts run for real, through the job runner, in
 * server/webhooks/webhooks.int.test.ts): one step per attempt, a durable sleep of the delay the attempt returned
 * between two, and the end at the first attempt that says it is done.
 */

const data = { deliveryId: "0b7c5e59-8d7a-4b52-9a38-3f1c3c2f9d10", projectId: "5d4a7a51-3a7e-4d0f-8e0c-9f5d0e8b1a22" };
const event = { name: "webhook/delivery.requested", data };

const run = async (steps: [id: string, result: unknown][]) => {
  const calls: string[] = [];
  const { result } = await new InngestTestEngine({
    function: deliverWebhook,
    events: [event],
    steps: steps.map(([id, value]) => ({ id, handler: () => (calls.push(id), value) })),
  }).execute();
  return { calls, result };
};

it("ends after the first attempt that succeeds", async () => {
  const { calls, result } = await run([["attempt-0", { done: true, status: "succeeded" }]]);
  expect(calls).toEqual(["attempt-0"]);
  expect(result).toEqual({ deliveryId: data.deliveryId, status: "succeeded" });
});

it("sleeps between attempts and stops when the attempts say it is over", async () => {
  const { calls, result } = await run([
    ["attempt-0", { done: false, retryInMs: 5000 }],
    ["wait-0", undefined],
    ["attempt-1", { done: false, retryInMs: 60_000 }],
    ["wait-1", undefined],
    ["attempt-2", { done: true, status: "failed" }],
  ]);
  expect(calls).toEqual(["attempt-0", "wait-0", "attempt-1", "wait-1", "attempt-2"]);
  expect(result).toEqual({ deliveryId: data.deliveryId, status: "failed" });
});
