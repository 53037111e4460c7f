import { z } from "zod";
import { THINKING_LEVELS } from "@/server/answers/thinking.schema";
import { LEGACY_LISTED_METHODS, V2_METHODS } from "@/server/parsing/methods.schema";
import { SEARCH_TYPES } from "@/server/retrieval/search-type.schema";
import { ENRICHMENT_OPTIONS, INDEXING_OPTIONS } from "@/server/sources/sources.schema";

/** zod → JSON Schema (2020-12, the dialect of OpenAPI 3.1), with zod's own converter. */

export type JsonSchema = Record<string, unknown>;

/**
 * Fields the request schemas take as `unknown` and check by hand, so that a wrong value gets the contract's exact
 * 400 sentence (`Invalid method 'x'. Valid values: …`); zod can only describe them as "anything". The document says
 * what they accept, from the same lists the checks use.
 */
const oneOf = (values: readonly string[]) => ({ type: "string", enum: [...values] });
const UNKNOWN_FIELDS: Record<string, JsonSchema> = {
  method: oneOf(V2_METHODS),
  partition_method: oneOf(V2_METHODS),
  enrichment: oneOf(ENRICHMENT_OPTIONS),
  indexing: oneOf(INDEXING_OPTIONS),
  search_type: oneOf(SEARCH_TYPES),
  thinking_level: oneOf(THINKING_LEVELS),
  user_instruction: { type: "string", minLength: 1 },
  output_schema: { type: "object", description: "A JSON Schema: root `type: object` with `properties` (§5.14)." },
};

/** The legacy routes' `partition_method`: the listed legacy names; v2 names and older ones are accepted too. */
export const LEGACY_FIELDS: Record<string, JsonSchema> = {
  partition_method: { type: "string", examples: [...LEGACY_LISTED_METHODS] },
};

const SAFE = Number.MAX_SAFE_INTEGER;

/** zod writes `int()` as a ±2^53 range; that says nothing to a reader. */
const dropSafeIntegerBounds = (schema: JsonSchema) => {
  if (schema.minimum === -SAFE) delete schema.minimum;
  if (schema.maximum === SAFE) delete schema.maximum;
};

const isEmpty = (schema: unknown) =>
  !!schema && typeof schema === "object" && Object.keys(schema as object).length === 0;

/** Fills the `{}` properties named in `fields`, everywhere in the tree, and tidies integer bounds. */
const refine = (node: unknown, fields: Record<string, JsonSchema>): void => {
  if (Array.isArray(node)) return node.forEach((n) => refine(n, fields));
  if (!node || typeof node !== "object") return;
  const schema = node as JsonSchema;
  dropSafeIntegerBounds(schema);
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  // The request's abort signal, which a route hands its procedure beside the body: not a field a client sends.
  if (props && "signal" in fields) delete props.signal;
  for (const [name, prop] of Object.entries(props ?? {})) {
    if (isEmpty(prop) && fields[name]) props![name] = structuredClone(fields[name]);
  }
  Object.values(schema).forEach((v) => refine(v, fields));
};

/**
 * A request schema as a client sees it (`io: "input"`: defaults optional, preprocessing before its checks); a
 * response schema as the server answers it (`io: "output"`). Values no JSON Schema can express (an AbortSignal the
 * route adds, a stored JSON column checked by a function) become `{}`: any value.
 */
export const toJsonSchema = (
  schema: z.ZodType,
  io: "input" | "output",
  fields: Record<string, JsonSchema> = {},
): JsonSchema => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  if (io === "input") refine(json, { ...UNKNOWN_FIELDS, signal: {}, ...fields });
  else refine(json, {});
  return json;
};
