import { inngest } from "@/server/jobs/client";
import { evaluationRunRequested } from "@/server/jobs/events";
import { evaluateBatch, failRun, finishRun, planRun } from "@/server/evaluation/run-steps";

/**
 * Runs a test set through a flow (server/evaluation/run-steps.ts): one step per batch of cases, each writing its
 * cases' rows and the run's progress, so a restart resumes after the last finished batch. A cancelled run stops
 * before its next case and keeps what it has. A judge's 429 or timeout fails the batch's step, which is retried;
 * anything that still fails marks the run failed with the reason.
 * Step ids are stable: "batch-<n>" per batch of server/evaluation/run-steps.ts CASE_BATCH cases.
 */
export const runEvaluation = inngest.createFunction(
  { id: "run-evaluation", name: "Run evaluation", retries: 3, triggers: [evaluationRunRequested] },
  async ({ event, step }) => {
    const { runId } = event.data;
    try {
      const plan = await step.run("plan", () => planRun(runId));
      if (!plan) return { runId, status: "cancelled" };
      for (let batch = 0; batch < plan.batches; batch++) {
        const done = await step.run(`batch-${batch}`, () => evaluateBatch(runId, batch));
        if (done.cancelled) break;
      }
      return { runId, ...(await step.run("finish", () => finishRun(runId))) };
    } catch (error) {
      await step.run("mark-failed", () => failRun(runId, error));
      return { runId, status: "failed" };
    }
  },
);
