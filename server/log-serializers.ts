import { EventEmitter } from "node:events";

/**
 * What a log line may hold. pino's standard error serializer copies every enumerable property of an error, and pg's
 * pool errors carry the whole client (connection parameters, type tables, the socket): 3 KB a line, with the password
 * when the connection string has one. So an error is logged as its type, message, code, stack and cause only, and
 * every other value goes through one safety net: connections, sockets, clients and streams (all event emitters) are
 * named, not written; a request is its method and URL; a secret-looking field is redacted at any depth.
 */

const MAX_DEPTH = 6;
const MAX_ITEMS = 50;
const MAX_CAUSES = 3;

/** Field names (lower case, without - and _) whose string values are never logged. */
const SECRET_NAME =
  /(password|passwd|secret|apikey|signingkey|eventkey|privatekey|authorization|cookie|accesstoken|refreshtoken|sessiontoken|idtoken|hashedtoken|encryptedkey|pepper)$/;
const isSecretName = (key: string) => {
  const k = key.toLowerCase().replace(/[-_]/g, "");
  return k === "token" || SECRET_NAME.test(k);
};

type ErrorLike = {
  name?: unknown;
  type?: unknown;
  message?: unknown;
  code?: unknown;
  stack?: unknown;
  cause?: unknown;
};

/** An error (or anything thrown) as `{ type, message, code?, stack?, cause? }`: never the objects it carries. */
export const safeError = (error: unknown, depth = 0): Record<string, unknown> => {
  if (typeof error !== "object" || error === null) return { type: typeof error, message: String(error) };
  const e = error as ErrorLike;
  const out: Record<string, unknown> = {
    type:
      error instanceof Error
        ? error.constructor.name || "Error"
        : typeof e.type === "string"
          ? e.type
          : (error.constructor?.name ?? "Object"),
    message: typeof e.message === "string" ? e.message : String(e.message ?? ""),
  };
  if (typeof e.code === "string" || typeof e.code === "number") out.code = e.code;
  if (typeof e.stack === "string") out.stack = e.stack;
  if (e.cause !== undefined && e.cause !== null && depth < MAX_CAUSES) out.cause = safeError(e.cause, depth + 1);
  return out;
};

const isRequest = (value: object): value is { method: string; url: string } =>
  value instanceof Request ||
  (typeof (value as { method?: unknown }).method === "string" &&
    typeof (value as { url?: unknown }).url === "string" &&
    typeof (value as { headers?: unknown }).headers === "object");

const scrub = (value: unknown, depth: number, seen: WeakSet<object>): unknown => {
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Error) return safeError(value);
  if (seen.has(value)) return "[Circular]";
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return `[${value.constructor.name} ${value.byteLength} bytes]`;
  if (isRequest(value)) return { method: value.method, url: value.url };
  if (value instanceof EventEmitter || value instanceof Headers || value instanceof Response) {
    return `[${value.constructor.name}]`;
  }
  // Dates, URLs and the like say themselves what to log.
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  if (depth >= MAX_DEPTH) return "[Object]";
  seen.add(value);
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => scrub(v, depth + 1, seen));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more`] : items;
  }
  if (value instanceof Map || value instanceof Set) return `[${value.constructor.name} of ${value.size}]`;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = isSecretName(key) && typeof v === "string" ? "[redacted]" : scrub(v, depth + 1, seen);
  }
  return out;
};

/** pino `formatters.log`: every logged object, before the serializers. */
export const scrubLogObject = (object: Record<string, unknown>): Record<string, unknown> => {
  const seen = new WeakSet<object>([object]);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === "err" || key === "error") out[key] = safeError(value);
    else out[key] = isSecretName(key) && typeof value === "string" ? "[redacted]" : scrub(value, 1, seen);
  }
  return out;
};
