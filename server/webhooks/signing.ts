import { createHash, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/**
 * Standard Webhooks signing: a secret `whsec_<base64 of 24 random bytes>`, and per attempt the headers webhook-id
 * (the message id, the same on every retry so receivers can drop duplicates), webhook-timestamp (seconds) and
 * webhook-signature (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`), computed by the reference library.
 */

export const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/**
 * The message id of an event: derived from what the event is about (e.g. "build.completed:<build id>"), so the same
 * event emitted twice (a retried step) is one message, and one delivery per endpoint.
 */
export const messageId = (projectId: string, key: string) =>
  `msg_${createHash("sha256").update(`${projectId}:${key}`).digest("base64url").slice(0, 27)}`;

export const signedHeaders = (secret: string, id: string, body: string, at = new Date()) => ({
  "webhook-id": id,
  "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  "webhook-signature": new Webhook(secret).sign(id, at, body),
});
