import { AppError } from "../errors";

/**
 * The output_schema rules of contract §5.14, checked before any model call: a root object with properties; types
 * object, array, string, number, integer, boolean, null; keywords type, properties, items, required, description,
 * enum (of strings) and format (on strings); nullable only as ["<type>", "null"]; no oneOf/anyOf/allOf/$ref; at most
 * 5 levels deep.
 */

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const KEYWORDS = new Set(["type", "properties", "items", "required", "description", "enum", "format"]);
const FORBIDDEN = ["oneOf", "anyOf", "allOf", "$ref"];
export const MAX_SCHEMA_DEPTH = 5;

const fail = (reason: string): never => {
  throw new AppError("BAD_REQUEST", `Invalid output_schema: ${reason}`);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const typeOf = (node: Record<string, unknown>, path: string): string => {
  const type = node.type;
  if (typeof type === "string") {
    if (!TYPES.has(type)) fail(`unsupported type '${type}' at ${path}`);
    return type;
  }
  if (Array.isArray(type)) {
    const [a, b, ...rest] = type;
    const pair = rest.length === 0 && type.length === 2 && typeof a === "string" && b === "null";
    if (!pair || !TYPES.has(a) || a === "null") {
      fail(`type unions are not supported at ${path}; a nullable field is written ["<type>", "null"]`);
    }
    return a as string;
  }
  return fail(`missing type at ${path}`);
};

const checkNode = (node: unknown, path: string, depth: number): void => {
  if (!isObject(node)) fail(`${path} must be an object`);
  const schema = node as Record<string, unknown>;
  if (depth > MAX_SCHEMA_DEPTH) fail(`nesting deeper than ${MAX_SCHEMA_DEPTH} levels at ${path}`);
  for (const key of Object.keys(schema)) {
    if (FORBIDDEN.includes(key)) fail(`'${key}' is not supported (at ${path})`);
    if (!KEYWORDS.has(key)) fail(`unsupported keyword '${key}' at ${path}`);
  }
  const type = typeOf(schema, path);
  if (schema.description !== undefined && typeof schema.description !== "string") {
    fail(`description must be a string at ${path}`);
  }
  if (schema.enum !== undefined) {
    if (type !== "string") fail(`enum is allowed on strings only (at ${path})`);
    if (!Array.isArray(schema.enum) || !schema.enum.length || !schema.enum.every((v) => typeof v === "string")) {
      fail(`enum must be a non-empty list of strings at ${path}`);
    }
  }
  if (schema.format !== undefined && (type !== "string" || typeof schema.format !== "string")) {
    fail(`format is allowed on strings only (at ${path})`);
  }
  if (type === "object") {
    if (schema.items !== undefined) fail(`items belongs to arrays, not objects (at ${path})`);
    const props = schema.properties;
    if (!isObject(props)) fail(`an object needs properties (at ${path})`);
    for (const [name, child] of Object.entries(props as Record<string, unknown>)) {
      checkNode(child, `${path}.${name}`, depth + 1);
    }
    if (schema.required !== undefined) {
      const required = schema.required;
      if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
        fail(`required must be a list of property names at ${path}`);
      }
      const unknown = (required as string[]).find((r) => !(r in (props as object)));
      if (unknown) fail(`required names '${unknown}', which is not a property (at ${path})`);
    }
  } else {
    if (schema.properties !== undefined || schema.required !== undefined) {
      fail(`properties and required belong to objects (at ${path})`);
    }
    if (type === "array") {
      if (schema.items === undefined) fail(`an array needs items (at ${path})`);
      checkNode(schema.items, `${path}[]`, depth + 1);
    } else if (schema.items !== undefined) fail(`items belongs to arrays (at ${path})`);
  }
};

/** Throws 400 `Invalid output_schema: <reason>` unless the schema follows the rules. */
export const checkOutputSchema = (schema: unknown): Record<string, unknown> => {
  if (!isObject(schema)) return fail("it must be a JSON object");
  if (schema.type !== "object") fail('the root must have type "object"');
  checkNode(schema, "root", 1);
  return schema;
};
