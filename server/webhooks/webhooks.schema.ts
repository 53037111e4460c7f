import { z } from "zod";

/**
 * Webhooks as the dashboard and the procedures both see them (isomorphic: no server imports). An endpoint is a URL
 * of the project's own that Quarry POSTs signed events to (Standard Webhooks: webhook-id, webhook-timestamp,
 * webhook-signature).
 */

export const WEBHOOK_EVENTS = [
  "build.completed",
  "build.failed",
  "source.deleted",
  "flow.deployed",
  "flow.deploy_failed",
  "evaluation.completed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** What "Send test event" sends; no endpoint subscribes to it, it goes to the one endpoint asked. */
export const TEST_EVENT = "webhook.test";

export const EVENT_LABELS: Record<WebhookEventType, string> = {
  "build.completed": "A build completed (also with errors)",
  "build.failed": "A build failed",
  "source.deleted": "A source was deleted",
  "flow.deployed": "A flow revision was deployed",
  "flow.deploy_failed": "A flow deploy failed",
  "evaluation.completed": "An evaluation run finished",
};

const Url = z
  .string()
  .trim()
  .url("Enter the receiver's address, e.g. https://example.com/quarry-webhooks")
  .max(2000, "At most 2000 characters")
  .refine((u) => /^https?:\/\//i.test(u), "Only http and https addresses");
const Description = z.string().trim().max(200, "At most 200 characters");
const Events = z.array(z.enum(WEBHOOK_EVENTS)).min(1, "Choose at least one event").max(WEBHOOK_EVENTS.length);

export const CreateEndpointInput = z.object({
  url: Url,
  description: Description.optional(),
  events: Events,
});
export type CreateEndpointInput = z.infer<typeof CreateEndpointInput>;

export const UpdateEndpointInput = z.object({
  url: Url.optional(),
  description: Description.optional(),
  events: Events.optional(),
  /** Enabling again clears the failure count and the reason it was disabled. */
  enabled: z.boolean().optional(),
});
export type UpdateEndpointInput = z.infer<typeof UpdateEndpointInput>;

export type EndpointView = {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  consecutiveFailures: number;
  /** Why Quarry disabled it, for the admins; null when enabled or disabled by hand. */
  disabledReason: string | null;
  disabledAt: Date | null;
  createdAt: Date;
};

export type DeliveryView = {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  latencyMs: number | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
};
