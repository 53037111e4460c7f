import { UpdateEndpointInput } from "@/server/webhooks/webhooks.schema";
import { CreateWebhookInput } from "../v1/webhooks/requests.schema";
import {
  WebhookDeletedResponse,
  WebhookDeliveriesResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookListResponse,
  WebhookSecretResponse,
} from "../v1/webhooks/responses.schema";
import type { RouteSpec } from "./route-spec";

/**
 * The project's webhook endpoints (README "Webhooks"): an extension beside the contract. Every call needs a token
 * with `write`, reading included; another project's endpoint, or an id that is not one, answers 404.
 */

const ENDPOINT = { endpoint_id: "The endpoint's id, as listed." };
const NOT_FOUND = "Webhook endpoint not found";

const webhook = (spec: Omit<RouteSpec, "tag" | "permission">): RouteSpec => ({
  tag: "Webhooks",
  permission: "write",
  ...spec,
});

export const WEBHOOK_ROUTES: RouteSpec[] = [
  webhook({
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    procedure: "webhooks.list",
    summary: "List the project's webhook endpoints",
    response: WebhookListResponse,
  }),
  webhook({
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    procedure: "webhooks.create",
    summary: "Add an endpoint; the answer holds its signing secret, shown only here",
    body: { json: CreateWebhookInput },
    response: WebhookSecretResponse,
    errors: { 400: "url: Invalid URL" },
  }),
  webhook({
    method: "get",
    path: "/webhooks/{endpoint_id}",
    operationId: "getWebhook",
    procedure: "webhooks.get",
    summary: "One endpoint",
    pathParams: ENDPOINT,
    response: WebhookEndpointResponse,
    errors: { 404: NOT_FOUND },
  }),
  webhook({
    method: "patch",
    path: "/webhooks/{endpoint_id}",
    operationId: "updateWebhook",
    procedure: "webhooks.update",
    summary: "Change an endpoint's url, description, events or enabled flag",
    pathParams: ENDPOINT,
    body: { json: UpdateEndpointInput },
    response: WebhookEndpointResponse,
    errors: { 400: "events: Invalid option", 404: NOT_FOUND },
  }),
  webhook({
    method: "delete",
    path: "/webhooks/{endpoint_id}",
    operationId: "deleteWebhook",
    procedure: "webhooks.remove",
    summary: "Delete an endpoint and its delivery log",
    pathParams: ENDPOINT,
    response: WebhookDeletedResponse,
    errors: { 404: NOT_FOUND },
  }),
  webhook({
    method: "get",
    path: "/webhooks/{endpoint_id}/deliveries",
    operationId: "listWebhookDeliveries",
    procedure: "webhooks.deliveries",
    summary: "The endpoint's newest 50 deliveries",
    pathParams: ENDPOINT,
    response: WebhookDeliveriesResponse,
    errors: { 404: NOT_FOUND },
  }),
  webhook({
    method: "post",
    path: "/webhooks/{endpoint_id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    procedure: "webhooks.rotateSecret",
    summary: "A new signing secret, in this answer only",
    pathParams: ENDPOINT,
    response: WebhookSecretResponse,
    errors: { 404: NOT_FOUND },
  }),
  webhook({
    method: "post",
    path: "/webhooks/{endpoint_id}/test",
    operationId: "sendWebhookTest",
    procedure: "webhooks.sendTest",
    summary: "Send a webhook.test event; answers with its pending delivery",
    pathParams: ENDPOINT,
    response: WebhookDeliveryResponse,
    errors: { 404: NOT_FOUND },
  }),
];
