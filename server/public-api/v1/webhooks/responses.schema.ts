import { z } from "zod";
import { WEBHOOK_EVENTS } from "@/server/webhooks/webhooks.schema";

/** Response shapes of /api/public/v1/webhooks, snake_case; the secret is in the create and rotate answers only. */

export const WebhookEndpointResponse = z.strictObject({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  consecutive_failures: z.number().int(),
  disabled_reason: z.string().nullable(),
  disabled_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookEndpointResponse = z.infer<typeof WebhookEndpointResponse>;

export const WebhookListResponse = z.strictObject({ items: z.array(WebhookEndpointResponse) });

export const WebhookSecretResponse = WebhookEndpointResponse.extend({ secret: z.string().startsWith("whsec_") });

export const WebhookDeliveryResponse = z.strictObject({
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponse>;

export const WebhookDeliveriesResponse = z.strictObject({ items: z.array(WebhookDeliveryResponse) });

export const WebhookDeletedResponse = z.strictObject({ id: z.string(), deleted: z.literal(true) });
