import { randomUUID } from "node:crypto";
import { fetcher as sharedFetcher, type Fetcher } from "../connectors/fetch";
import { db } from "../db";
import { AppError } from "../errors";
import type { WebhookEndpoint } from "../generated/prisma/client";
import { sealKey } from "../model-providers/key-crypto";
import { newSecret } from "./signing";
import type {
  CreateEndpointInput,
  DeliveryView,
  EndpointView,
  UpdateEndpointInput,
  WebhookEventType,
} from "./webhooks.schema";

/**
 * A project's webhook endpoints. Every query is scoped by the project id. The secret is returned once, by create
 * and rotateSecret; the views have no field for it, and the sealed value is read only by the delivery (deliver.ts).
 */

export const MAX_ENDPOINTS = 20;
const DELIVERIES_SHOWN = 50;

/** What seals an endpoint's secret binds it to: a sealed value copied to another endpoint's row does not open. */
export const secretBinding = (endpointId: string) => `webhook:${endpointId}`;

const toView = (row: WebhookEndpoint): EndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookEventType[],
  enabled: row.enabled,
  consecutiveFailures: row.consecutiveFailures,
  disabledReason: row.disabledReason,
  disabledAt: row.disabledAt,
  createdAt: row.createdAt,
});

/**
 * The receiver must be a public address (or one listed in QUARRY_FETCH_ALLOW_HOSTS): refused here with the
 * fetcher's own sentence, and again by the fetcher at every attempt (a name may resolve elsewhere later). A name
 * that does not resolve now is let through: it may exist by the time an event comes.
 */
const checkReceiver = async (url: string, fetch: Fetcher) => {
  await fetch.check(url).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "BAD_REQUEST") throw error;
  });
};

export const findEndpoint = async (projectId: string, endpointId: string) => {
  const row = await db.webhookEndpoint.findFirst({ where: { id: endpointId, projectId } });
  if (!row) throw new AppError("NOT_FOUND", "Webhook endpoint not found");
  return row;
};

export const getEndpoint = async (projectId: string, endpointId: string) =>
  toView(await findEndpoint(projectId, endpointId));

export const listEndpoints = async (projectId: string) => {
  const rows = await db.webhookEndpoint.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
  return rows.map(toView);
};

export const createEndpoint = async (
  projectId: string,
  input: CreateEndpointInput,
  createdById: string | null,
  fetch: Fetcher = sharedFetcher(),
) => {
  await checkReceiver(input.url, fetch);
  if ((await db.webhookEndpoint.count({ where: { projectId } })) >= MAX_ENDPOINTS) {
    throw new AppError("CONFLICT", `A project has at most ${MAX_ENDPOINTS} webhook endpoints`);
  }
  const id = randomUUID();
  const secret = newSecret();
  const row = await db.webhookEndpoint.create({
    data: {
      id,
      projectId,
      url: input.url,
      description: input.description ?? "",
      events: [...new Set(input.events)],
      encryptedSecret: await sealKey(secret, secretBinding(id)),
      createdById,
    },
  });
  return { endpoint: toView(row), secret };
};

export const updateEndpoint = async (
  projectId: string,
  endpointId: string,
  input: UpdateEndpointInput,
  fetch: Fetcher = sharedFetcher(),
) => {
  await findEndpoint(projectId, endpointId);
  if (input.url) await checkReceiver(input.url, fetch);
  const reenable = input.enabled === true ? { consecutiveFailures: 0, disabledReason: null, disabledAt: null } : {};
  const disable = input.enabled === false ? { disabledReason: null, disabledAt: new Date() } : {};
  const row = await db.webhookEndpoint.update({
    where: { id: endpointId },
    data: {
      url: input.url,
      description: input.description,
      events: input.events ? [...new Set(input.events)] : undefined,
      enabled: input.enabled,
      ...reenable,
      ...disable,
    },
  });
  return toView(row);
};

/** A new secret, shown once; the old one stops signing at once. */
export const rotateSecret = async (projectId: string, endpointId: string) => {
  await findEndpoint(projectId, endpointId);
  const secret = newSecret();
  const row = await db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { encryptedSecret: await sealKey(secret, secretBinding(endpointId)) },
  });
  return { endpoint: toView(row), secret };
};

/** Deletes the endpoint and its delivery log; deliveries waiting for a retry find nothing and stop. */
export const removeEndpoint = async (projectId: string, endpointId: string) => {
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id: endpointId, projectId } });
  if (!count) throw new AppError("NOT_FOUND", "Webhook endpoint not found");
};

/** The newest deliveries of the project, or of one of its endpoints. */
export const listDeliveries = async (projectId: string, endpointId?: string): Promise<DeliveryView[]> => {
  if (endpointId) await findEndpoint(projectId, endpointId);
  return db.webhookDelivery.findMany({
    where: { projectId, ...(endpointId ? { endpointId } : {}) },
    orderBy: { createdAt: "desc" },
    take: DELIVERIES_SHOWN,
    omit: { payload: true, projectId: true },
  });
};
