import { LEGACY_FIELDS, toJsonSchema, type JsonSchema } from "./json-schema";
import type { PublicOperation } from "./registry";
import type { RouteSpec } from "./route-spec";

/** One operation of the registry as an OpenAPI 3.1 Operation Object. */

const ERROR = { $ref: "#/components/schemas/Error" };

const errorResponse = (description: string, detail: string) => ({
  description,
  content: { "application/json": { schema: ERROR, example: { detail } } },
});

const ERROR_TITLES: Record<number, string> = {
  400: "Invalid request",
  403: "The token lacks the permission",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  411: "Content-Length missing",
  413: "Too large",
  504: "Timed out",
};

/** An example as the parameter's type: a query string's `1` and `true` are an integer and a boolean. */
const withExample = (value: string | undefined) =>
  value === undefined ? {} : { example: /^(-?\d+|true|false)$/.test(value) ? JSON.parse(value) : value };

const parameters = (op: PublicOperation, fields: Record<string, JsonSchema>) => {
  const path = Object.entries(op.pathParams ?? {}).map(([name, description]) => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string" },
    ...withExample(op.example?.params?.[name]),
  }));
  if (!op.query) return path;
  const query = toJsonSchema(op.query, "input", fields);
  const required = new Set((query.required as string[] | undefined) ?? []);
  const props = Object.entries((query.properties ?? {}) as Record<string, JsonSchema>);
  return [
    ...path,
    ...props
      .filter(([name]) => !(name in (op.pathParams ?? {})))
      .map(([name, schema]) => ({
        name,
        in: "query",
        required: required.has(name),
        schema,
        ...withExample(op.example?.query?.[name]),
      })),
  ];
};

/** A multipart form: the file, then the form fields the schema checks after it (contract §5.2). */
const requestBody = (op: RouteSpec, fields: Record<string, JsonSchema>) => {
  if (!op.body) return undefined;
  const example = op.example?.body;
  if ("json" in op.body) {
    const schema = toJsonSchema(op.body.json, "input", fields);
    return { required: true, content: { "application/json": { schema, ...(example ? { example } : {}) } } };
  }
  const form = toJsonSchema(op.body.multipart, "input", fields);
  const schema = {
    ...form,
    properties: {
      file: { type: "string", contentMediaType: "application/octet-stream", description: "The file, with its name." },
      ...(form.properties as object),
    },
    required: ["file", ...((form.required as string[] | undefined) ?? [])],
  };
  return { required: true, content: { "multipart/form-data": { schema, ...(example ? { example } : {}) } } };
};

const okResponse = (op: RouteSpec) => {
  const content: Record<string, unknown> = { "application/json": { schema: toJsonSchema(op.response, "output") } };
  if (op.streams) {
    content["text/event-stream"] = {
      schema: {
        type: "string",
        description: 'With `"stream": true`: `token` and `citation` events, then `done` with this response (§11.4).',
      },
    };
  }
  const headers = Object.fromEntries(
    Object.entries(op.responseHeaders ?? {}).map(([name, value]) => [
      name,
      { schema: { type: "string", const: value } },
    ]),
  );
  return { description: "Success", ...(op.responseHeaders ? { headers } : {}), content };
};

const responses = (op: RouteSpec) => {
  const out: Record<string, unknown> = { "200": okResponse(op) };
  if (op.permission) out["401"] = { $ref: "#/components/responses/Unauthorized" };
  if (op.permission) out["403"] = { $ref: "#/components/responses/Forbidden" };
  for (const [status, detail] of Object.entries(op.errors ?? {})) {
    out[status] = errorResponse(ERROR_TITLES[Number(status)] ?? "Error", detail);
  }
  out["500"] = { $ref: "#/components/responses/InternalError" };
  return out;
};

export const toOperation = (op: PublicOperation) => {
  // The legacy routes take the legacy `partition_method` names (contract §3).
  const fields = op.tag === "Legacy" ? LEGACY_FIELDS : {};
  const permission = op.permission ? `Token permission: \`${op.permission}\`.` : "No token needed.";
  const body = requestBody(op, fields);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: [op.description, permission].filter(Boolean).join("\n\n"),
    tags: [op.tag],
    ...(op.deprecated ? { deprecated: true } : {}),
    security: op.permission ? [{ bearerAuth: [] }] : [],
    parameters: parameters(op, fields),
    ...(body ? { requestBody: body } : {}),
    responses: responses(op),
  };
};
