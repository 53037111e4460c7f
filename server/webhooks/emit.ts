import { randomUUID } from "node:crypto";
import { db } from "../db";
import { jobRunner } from "../env";
import { hasRunForEventData } from "../jobs/run-store";
import { sendJobEvent } from "../jobs/send";
import { webhookDeliveryRequested } from "../jobs/events";
import { logger } from "../logger";
import { findEndpoint } from "./endpoints";
import { messageId } from "./signing";
import { TEST_EVENT, type WebhookEventType } from "./webhooks.schema";

/**
 * Emitting an event: one delivery row per enabled endpoint of the project that subscribes to it (durable: the row
 * is written before anything is sent), then one job per delivery (deliver.ts through inngest/functions/
 * deliver-webhook.ts). The message id and the job event id are derived from the event, so emitting the same event
 * again (a retried step) adds nothing and starts nothing twice, but re-sends a delivery whose job was never started.
 */

type Body = { type: string; timestamp: string; data: Record<string, unknown> };

const enqueue = async (projectId: string, deliveryIds: string[]) => {
  for (const deliveryId of deliveryIds) {
    await sendJobEvent(webhookDeliveryRequested, { deliveryId, projectId }, { id: `webhook-delivery-${deliveryId}` });
  }
};

const store = async (projectId: string, endpointIds: string[], eventId: string, body: Body) => {
  const payload = JSON.stringify(body);
  await db.webhookDelivery.createMany({
    data: endpointIds.map((endpointId) => ({ projectId, endpointId, eventId, eventType: body.type, payload })),
    skipDuplicates: true,
  });
  const pending = await db.webhookDelivery.findMany({
    where: { projectId, eventId, endpointId: { in: endpointIds }, status: "pending", attempts: 0 },
    select: { id: true },
  });
  await enqueue(
    projectId,
    pending.map((d) => d.id),
  );
};

/**
 * Tells the project's subscribed endpoints that `type` happened. `key` names the occurrence ("<build id>"). Never
 * throws: a webhook that cannot be queued is logged, and the build, deploy or delete that emitted it goes on.
 */
export const emitWebhookEvent = async (
  projectId: string,
  type: WebhookEventType,
  key: string,
  data: Record<string, unknown>,
) => {
  try {
    const endpoints = await db.webhookEndpoint.findMany({
      where: { projectId, enabled: true, events: { has: type } },
      select: { id: true },
    });
    if (endpoints.length === 0) return;
    const body = { type, timestamp: new Date().toISOString(), data: { project_id: projectId, ...data } };
    await store(
      projectId,
      endpoints.map((e) => e.id),
      messageId(projectId, `${type}:${key}`),
      body,
    );
  } catch (err) {
    logger.error({ err, projectId, type, key }, "could not queue a webhook event");
  }
};

/** "Send test event": a `webhook.test` message to one endpoint, delivered (and retried) like any other. */
export const sendTestEvent = async (projectId: string, endpointId: string) => {
  const endpoint = await findEndpoint(projectId, endpointId);
  const eventId = messageId(projectId, `${TEST_EVENT}:${randomUUID()}`);
  const body = {
    type: TEST_EVENT,
    timestamp: new Date().toISOString(),
    data: { project_id: projectId, endpoint_id: endpoint.id, message: "A test event from Quarry" },
  };
  await store(projectId, [endpoint.id], eventId, body);
  return db.webhookDelivery.findFirstOrThrow({
    where: { projectId, endpointId, eventId },
    omit: { payload: true, projectId: true },
  });
};

/**
 * Deliveries a crash left behind between their row and their job (the row is written first): sent again at start.
 * In local mode the executor resumes the runs it has from Postgres, so only deliveries without a run are sent; an
 * Inngest server dedupes by the job event's id, so there every pending delivery is sent again.
 */
export const resumePendingDeliveries = async () => {
  const pending = await db.webhookDelivery.findMany({
    where: { status: "pending" },
    select: { id: true, projectId: true },
    orderBy: { createdAt: "asc" },
  });
  let resumed = 0;
  for (const { id, projectId } of pending) {
    if (jobRunner() === "local" && (await hasRunForEventData(db, "deliveryId", id))) continue;
    await enqueue(projectId, [id]).catch((err: unknown) =>
      logger.error({ err, deliveryId: id }, "could not re-send a pending webhook delivery"),
    );
    resumed += 1;
  }
  if (pending.length > 0) logger.info({ pending: pending.length, resumed }, "resumed pending webhook deliveries");
  return resumed;
};
