import { toOperation } from "./operation";
import { API_BASE, PUBLIC_OPERATIONS } from "./registry";

/**
 * The OpenAPI 3.1 document of the public API (`GET /api/public/v1/openapi.json`), generated from the registry:
 * the same zod schemas the procedures validate requests and check responses with.
 */

const DESCRIPTION = `Quarry's public API (the contract, docs/api/CONTRACT.md). Every operation but this document needs
\`Authorization: Bearer <API token>\`; a token belongs to one project and carries permissions (read, write, delete,
deploy). Errors are \`{"detail": "<one sentence>"}\` with the status: 400 invalid input (never 422), 401 missing or
unknown token, 403 permission, 404 not found (an unknown path: \`Not Found\`), 405 \`Method Not Allowed\`. A
trailing slash is optional on every path.

Flows have two addresses: the path form \`/api/public/v1/flows/{flow_name}/...\` and the host form
\`http://{flow_name}.flows.<app host>/...\` (listed under their own server); both reach the same handlers.`;

const FLOW_HOST_SERVER = {
  url: "http://{flow_name}.flows.{app_host}",
  description: "The host form of one flow's address (contract §0, §7)",
  variables: {
    flow_name: { default: "plain-rag", description: "The flow's name" },
    app_host: { default: "localhost:3000", description: "The app's host (and port)" },
  },
};

const COMPONENTS = {
  securitySchemes: {
    bearerAuth: {
      type: "http",
      scheme: "bearer",
      description: "A project API token (`qry_…`), made in the dashboard.",
    },
  },
  schemas: {
    Error: {
      type: "object",
      properties: { detail: { type: "string", description: "One plain sentence" } },
      required: ["detail"],
      additionalProperties: false,
    },
  },
  responses: {
    Unauthorized: {
      description: "Missing, malformed, unknown or revoked token",
      headers: { "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } } },
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Error" },
          example: { detail: "Invalid authentication credentials" },
        },
      },
    },
    Forbidden: {
      description: "The token lacks the permission the operation needs",
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Error" },
          example: { detail: "Permission denied" },
        },
      },
    },
    InternalError: {
      description: "Unexpected failure (the operation's own sentence, or `Internal server error`)",
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Error" },
          example: { detail: "Internal server error" },
        },
      },
    },
  },
};

const TAGS = [
  { name: "Sources", description: "Ingest, builds, elements (contract §5)" },
  { name: "Answers", description: "Retrieval, ask and extraction over sources (contract §5.13–5.15)" },
  { name: "Flows", description: "The flow service, in both address forms (contract §7)" },
  { name: "Legacy", description: "The earlier sources endpoints, kept for old clients (contract §6)" },
  { name: "Webhooks", description: "Signed event deliveries to the project's endpoints (an extension; README)" },
  { name: "Meta", description: "This document" },
];

export const buildOpenApiDocument = () => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of PUBLIC_OPERATIONS) {
    const item = (paths[op.path] ??= op.form === "flow-host" ? { servers: [FLOW_HOST_SERVER] } : {});
    item[op.method] = toOperation(op);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Quarry public API", version: "1.0.0", description: DESCRIPTION },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: API_BASE, description: "This Quarry" }],
    tags: TAGS,
    security: [{ bearerAuth: [] }],
    paths,
    components: COMPONENTS,
  };
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
