import { inngest } from "@/server/jobs/client";
import { webhookDeliveryRequested } from "@/server/jobs/events";
import { attemptDelivery } from "@/server/webhooks/deliver";

/** A bound on the loop whatever the schedule's length (server/webhooks/policy.ts); the default has 6 attempts. */
const MAX_STEPS = 50;

/**
 * Delivers one webhook (server/webhooks/deliver.ts): one step per attempt, each writing the delivery log, and a
 * durable sleep between attempts for the schedule's delay, so a restart resumes at the next attempt, not the first.
 * The receiver's failures are the domain's business (retried by this loop); the function's own retries are only
 * for the database. Step ids are stable: "attempt-<n>" and "wait-<n>".
 */
export const deliverWebhook = inngest.createFunction(
  { id: "deliver-webhook", name: "Deliver webhook", retries: 3, triggers: [webhookDeliveryRequested] },
  async ({ event, step }) => {
    const { deliveryId, projectId } = event.data;
    for (let n = 0; n < MAX_STEPS; n++) {
      const result = await step.run(`attempt-${n}`, () => attemptDelivery({ deliveryId, projectId }));
      if (result.done) return { deliveryId, status: result.status };
      await step.sleep(`wait-${n}`, result.retryInMs);
    }
    return { deliveryId, status: "failed" };
  },
);
