import type { z } from "zod";

/**
 * One public REST operation as the OpenAPI document describes it. The schemas are the very zod objects the
 * procedures validate with (requests.schema.ts) and check their answers against (responses.schema.ts, `.output()`),
 * so the document cannot say one thing while the code does another.
 */

export type HttpMethod = "get" | "post" | "patch" | "delete";
export type Permission = "read" | "write" | "delete" | "deploy";

/** A request or response example; ids in it are the `EXAMPLE_IDS` of examples.ts. */
export type Example = {
  /** Path parameters by their OpenAPI name. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON body, or a multipart form's fields (`file` by its name; the test sends a small document under it). */
  body?: Record<string, unknown>;
  /** The status the example answers with. */
  status: number;
};

export type RouteSpec = {
  method: HttpMethod;
  /** Path below the base `/api/public/v1`, OpenAPI style: `/sources/builds/{build_id}`. */
  path: string;
  operationId: string;
  /** The tRPC procedure the route calls (`sources.getBuild` under `publicApi`); null for a route without one. */
  procedure: string | null;
  summary: string;
  description?: string;
  tag: "Sources" | "Answers" | "Legacy" | "Flows" | "Webhooks" | "Meta";
  /** The token permission the procedure requires (contract §1); null: no token at all. */
  permission: Permission | null;
  /** Path parameter names with what they hold. */
  pathParams?: Record<string, string>;
  /** Query parameters: the input schema's keys that are not path parameters. */
  query?: z.ZodObject;
  body?: { json: z.ZodType } | { multipart: z.ZodObject };
  /** What a 200 carries (the non-streaming answer of a procedure that can also stream). */
  response: z.ZodType;
  /** `"stream": true` in the body turns the answer into `text/event-stream` (contract §11.4). */
  streams?: boolean;
  responseHeaders?: Record<string, string>;
  /** Statuses beyond the 401 and 500 every operation can answer, each with the contract's `detail` for it. */
  errors?: Partial<Record<400 | 403 | 404 | 405 | 409 | 411 | 413 | 504, string>>;
  deprecated?: boolean;
  example?: Example;
};
