import { z } from "zod";
import { FLOW_LIST_ROUTE, FLOW_ROUTES, type FlowRouteSpec } from "./routes-flows";
import { LEGACY_ROUTES } from "./routes-legacy";
import { SOURCES_ROUTES } from "./routes-sources";
import { WEBHOOK_ROUTES } from "./routes-webhooks";
import type { RouteSpec } from "./route-spec";

/**
 * Every public REST operation, once: the OpenAPI document is generated from this list, and the tests check it
 * against the route files the app registers (both ways) and replay its examples against the running app.
 */

/** Where the public API lives; the document's paths are relative to it, except the flow host form's. */
export const API_BASE = "/api/public/v1";

/** An operation as published: the host form of a flow operation has its own server and no `flow_name` parameter. */
export type PublicOperation = RouteSpec & { form: "base" | "flow-path" | "flow-host" };

const OPENAPI_ROUTE: RouteSpec = {
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  procedure: null,
  summary: "This document",
  description: "OpenAPI 3.1, generated from the code. Needs no token.",
  tag: "Meta",
  permission: null,
  response: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
  example: { status: 200 },
};

const FLOW_NAME = { flow_name: "The flow's name (a DNS label: `[a-z0-9-]`, 1–63 characters)." };

const pathForm = ({ suffix, ...spec }: FlowRouteSpec): PublicOperation => ({
  ...spec,
  path: `/flows/{flow_name}${suffix}`,
  tag: "Flows",
  pathParams: { ...FLOW_NAME, ...spec.pathParams },
  form: "flow-path",
});

/** The same operation at `http://{flow_name}.flows.<app host><suffix>`: the flow name is in the host. */
const hostForm = ({ suffix, ...spec }: FlowRouteSpec): PublicOperation => ({
  ...spec,
  path: suffix || "/",
  operationId: `${spec.operationId}ViaHost`,
  summary: `${spec.summary} (host form)`,
  tag: "Flows",
  ...(spec.example ? { example: { ...spec.example } } : {}),
  form: "flow-host",
});

export const PUBLIC_OPERATIONS: PublicOperation[] = [
  ...[...SOURCES_ROUTES, ...LEGACY_ROUTES, ...WEBHOOK_ROUTES, FLOW_LIST_ROUTE, OPENAPI_ROUTE].map((r) => ({
    ...r,
    form: "base" as const,
  })),
  ...FLOW_ROUTES.map(pathForm),
  ...FLOW_ROUTES.map(hostForm),
];
