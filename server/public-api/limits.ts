import { env } from "../env";
import { AppError } from "../errors";

/**
 * Limits every public route gets from the wrapper (public-route.ts), so a route written tomorrow is protected without
 * remembering to: request rate and concurrent uploads per token, and JSON body size (U+0000 in any input is refused
 * by the procedure ladder: input-guard.ts). Authentication comes first: nothing here runs, and no body is read, for
 * a request without a valid token.
 */

export const TOO_MANY_REQUESTS = "Too many requests";

/** Token bucket per API token: `QUARRY_RATE_LIMIT_PER_MIN` requests a minute on average, bursts up to the same. */
type Bucket = { tokens: number; updatedAt: number };
const buckets = new Map<string, Bucket>();
const MAX_TRACKED_TOKENS = 10_000;

/** Throws 429 (with the seconds to wait) when the token has used up its requests for now. */
export const takeRequestSlot = (tokenId: string, now = Date.now()): void => {
  const perMinute = env.QUARRY_RATE_LIMIT_PER_MIN;
  if (perMinute <= 0) return;
  const perMs = perMinute / 60_000;
  const bucket = buckets.get(tokenId) ?? { tokens: perMinute, updatedAt: now };
  bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.updatedAt) * perMs);
  bucket.updatedAt = now;
  if (bucket.tokens < 1) {
    buckets.set(tokenId, bucket);
    throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_REQUESTS, {
      retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)),
    });
  }
  bucket.tokens -= 1;
  // Buckets that refilled completely carry no information: forget them before the map grows without bound.
  if (!buckets.has(tokenId) && buckets.size >= MAX_TRACKED_TOKENS) {
    for (const [id, b] of buckets) if (b.tokens + (now - b.updatedAt) * perMs >= perMinute) buckets.delete(id);
  }
  buckets.set(tokenId, bucket);
};

/** Uploads (multipart bodies) in flight per token; each holds a connection, a file stream and disk space. */
const uploadsInFlight = new Map<string, number>();

export const isUpload = (req: Request) => /^multipart\//i.test(req.headers.get("content-type") ?? "");

/** Runs `work` as one of the token's concurrent uploads, or throws 429 when it already has the most allowed. */
export const withUploadSlot = async <T>(tokenId: string, work: () => Promise<T>): Promise<T> => {
  const max = env.QUARRY_UPLOADS_PER_TOKEN;
  const current = uploadsInFlight.get(tokenId) ?? 0;
  if (max > 0 && current >= max) {
    throw new AppError("TOO_MANY_REQUESTS", TOO_MANY_REQUESTS, { retryAfterS: 5 });
  }
  uploadsInFlight.set(tokenId, current + 1);
  try {
    return await work();
  } finally {
    const left = (uploadsInFlight.get(tokenId) ?? 1) - 1;
    if (left > 0) uploadsInFlight.set(tokenId, left);
    else uploadsInFlight.delete(tokenId);
  }
};

export const jsonBodyLimitBytes = () => env.QUARRY_MAX_JSON_BODY_KB * 1024;

const tooLarge = () =>
  new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds the maximum size of ${env.QUARRY_MAX_JSON_BODY_KB} KB`);

/**
 * The body as text, refused with 413 as soon as it is known to be too large: from Content-Length before a byte is
 * read, or while reading a chunked body (the rest is never read; the server closes the connection).
 */
export const readBodyText = async (req: Request, maxBytes = jsonBodyLimitBytes()): Promise<string> => {
  const length = req.headers.get("content-length");
  if (length !== null && Number(length) > maxBytes) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Not cancel(): that would reset the connection before the 413 is written. The launcher drops what is left.
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
};
