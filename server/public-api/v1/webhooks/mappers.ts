import type { DeliveryView, EndpointView } from "@/server/webhooks/webhooks.schema";
import type { WebhookDeliveryResponse, WebhookEndpointResponse } from "./responses.schema";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toEndpointDto = (e: EndpointView): WebhookEndpointResponse => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  enabled: e.enabled,
  consecutive_failures: e.consecutiveFailures,
  disabled_reason: e.disabledReason,
  disabled_at: iso(e.disabledAt),
  created_at: e.createdAt.toISOString(),
});

export const toDeliveryDto = (d: DeliveryView): WebhookDeliveryResponse => ({
  id: d.id,
  endpoint_id: d.endpointId,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempts: d.attempts,
  last_status: d.lastStatus,
  last_error: d.lastError,
  latency_ms: d.latencyMs,
  next_attempt_at: iso(d.nextAttemptAt),
  created_at: d.createdAt.toISOString(),
  finished_at: iso(d.finishedAt),
});
