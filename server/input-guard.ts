import { AppError } from "./errors";

/**
 * The one guard for text that enters the server. Postgres text cannot hold U+0000, and a path segment that does not
 * percent-decode to a string (invalid UTF-8, an overlong form, a surrogate half, a stray `%`) made Next answer 500:
 * both are the caller's mistake and answer 400. Where each check runs: path segments in the root proxy (proxy.ts),
 * before routing and auth; tRPC input, which every public route and dashboard call goes through, in the procedure
 * ladder (trpc/init.ts); Better Auth's JSON in its `before` hook (auth/auth.ts); multipart fields as they stream
 * (public-api/multipart.ts).
 */

export const NUL_DETAIL = "Invalid input: text must not contain NUL (U+0000) characters";
export const PATH_DETAIL = "Invalid path: a segment is not valid percent-encoded UTF-8 text";

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Whether any string in `value` (keys included) holds U+0000. Only plain objects and arrays are walked: a stream,
 * a Headers object or a Buffer handed to a procedure is not text input.
 */
export const hasNul = (value: unknown, depth = 0): boolean => {
  if (typeof value === "string") return value.includes("\u0000");
  if (!value || typeof value !== "object" || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  if (!isPlainObject(value)) return false;
  return Object.entries(value).some(([k, v]) => k.includes("\u0000") || hasNul(v, depth + 1));
};

/** Throws a 400 `AppError` when `value` holds U+0000 anywhere; returns it unchanged otherwise. */
export const refuseNul = <T>(value: T): T => {
  if (hasNul(value)) throw new AppError("BAD_REQUEST", NUL_DETAIL);
  return value;
};

/**
 * Whether a URL path (as sent, still percent-encoded) has a segment that does not decode to text Quarry can hold:
 * `decodeURIComponent` refuses invalid UTF-8, overlong forms, surrogate halves and a `%` without two hex digits;
 * U+0000 decodes but cannot be stored.
 */
export const isMalformedPath = (pathname: string): boolean =>
  pathname.split("/").some((segment) => {
    try {
      return decodeURIComponent(segment).includes("\u0000");
    } catch {
      return true;
    }
  });
