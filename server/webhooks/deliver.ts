import { fetcher as sharedFetcher, type Fetcher } from "../connectors/fetch";
import { RefusedDestinationError } from "../connectors/destination";
import { db } from "../db";
import { errorMessage } from "../errors";
import { logger } from "../logger";
import { openKey } from "../model-providers/key-crypto";
import { secretBinding } from "./endpoints";
import { attemptTimeoutMs, disableAfter, maxAttempts, retryDelaysMs } from "./policy";
import { signedHeaders } from "./signing";
import { TEST_EVENT } from "./webhooks.schema";

/**
 * One attempt of one delivery (the job's step): POST the stored body, signed afresh, through the SSRF-safe fetcher
 * under the attempt's time limit, and write what came back into the delivery log. A 2xx ends the delivery; anything
 * else is retried after the next delay of the schedule, until the attempts run out. A refused address is not
 * retried (it would be refused again). Never throws for the receiver's sake: only the database can fail a step.
 */

export type AttemptResult = { done: true; status: "succeeded" | "failed" } | { done: false; retryInMs: number };

type Outcome = { ok: boolean; status: number | null; error: string | null; latencyMs: number; final: boolean };

const USER_AGENT = "Quarry-Webhooks/1.0";
/** Enough of a receiver's error page to say what it said. */
const ERROR_TEXT = 300;

const readSome = async (body: NodeJS.ReadableStream & { destroy: () => void }) => {
  let text = "";
  try {
    for await (const chunk of body) {
      text += (chunk as Buffer).toString("utf8");
      if (text.length >= ERROR_TEXT) break;
    }
  } catch {
    // The status is what counts; the text is only a hint for the log.
  } finally {
    body.destroy();
  }
  return text.replace(/\s+/g, " ").trim().slice(0, ERROR_TEXT);
};

const post = async (url: string, headers: Record<string, string>, body: string, fetch: Fetcher): Promise<Outcome> => {
  const started = Date.now();
  try {
    const response = await fetch.open(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": USER_AGENT },
      body,
      timeoutMs: attemptTimeoutMs(),
      // A redirect is not followed: a receiver answers where it was registered.
      maxRedirects: 0,
      maxBytes: 64 * 1024,
    });
    const ok = response.status >= 200 && response.status < 300;
    const text = ok ? (response.body.destroy(), "") : await readSome(response.body);
    const error = ok ? null : `The receiver answered ${response.status}${text ? `: ${text}` : ""}`;
    return { ok, status: response.status, error, latencyMs: Date.now() - started, final: false };
  } catch (error) {
    const timedOut = Date.now() - started >= attemptTimeoutMs() - 50;
    const redirected = /more than 0 redirects/.test(errorMessage(error));
    const message = timedOut
      ? `No answer within ${attemptTimeoutMs()} ms`
      : redirected
        ? "The receiver answered with a redirect, which is not followed: register the address it redirects to"
        : errorMessage(error);
    const final = error instanceof RefusedDestinationError;
    return { ok: false, status: null, error: message, latencyMs: Date.now() - started, final };
  }
};

/** A delivery that failed every attempt counts against its endpoint; enough in a row disable it, with the reason. */
const countFailure = async (endpointId: string, lastError: string | null) => {
  const endpoint = await db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { consecutiveFailures: { increment: 1 } },
  });
  if (!endpoint.enabled || endpoint.consecutiveFailures < disableAfter()) return;
  const reason =
    `Disabled after ${endpoint.consecutiveFailures} deliveries in a row failed every attempt` +
    (lastError ? `; the last: ${lastError}` : "");
  await db.webhookEndpoint.updateMany({
    where: { id: endpointId, enabled: true },
    data: { enabled: false, disabledReason: reason, disabledAt: new Date() },
  });
  logger.warn({ endpointId, reason }, "webhook endpoint disabled");
};

const finish = async (deliveryId: string, status: "succeeded" | "failed", fields: object = {}) => {
  await db.webhookDelivery.update({
    where: { id: deliveryId },
    data: { status, nextAttemptAt: null, finishedAt: new Date(), ...fields },
  });
  return { done: true, status } as const;
};

export const attemptDelivery = async (
  { deliveryId, projectId }: { deliveryId: string; projectId: string },
  fetch: Fetcher = sharedFetcher(),
): Promise<AttemptResult> => {
  const delivery = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, projectId },
    include: { endpoint: true },
  });
  // Deleted with its endpoint, or finished by an earlier life of this step.
  if (!delivery) return { done: true, status: "failed" };
  if (delivery.status !== "pending") return { done: true, status: delivery.status };
  const { endpoint } = delivery;
  if (!endpoint.enabled && delivery.eventType !== TEST_EVENT) {
    return finish(deliveryId, "failed", { lastError: "The endpoint is disabled" });
  }
  let outcome: Outcome;
  try {
    const secret = await openKey(endpoint.encryptedSecret, secretBinding(endpoint.id));
    outcome = await post(
      endpoint.url,
      signedHeaders(secret, delivery.eventId, delivery.payload),
      delivery.payload,
      fetch,
    );
  } catch (error) {
    // The secret is unreadable (the server secret changed): nothing a retry changes; rotating the secret does.
    outcome = { ok: false, status: null, error: errorMessage(error), latencyMs: 0, final: true };
  }
  const attempts = delivery.attempts + 1;
  const log = { attempts, lastStatus: outcome.status, lastError: outcome.error, latencyMs: outcome.latencyMs };
  if (outcome.ok) {
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { consecutiveFailures: 0 } });
    // The error of an earlier attempt stays in the log: it says why the delivery needed a retry.
    return finish(deliveryId, "succeeded", { ...log, lastError: delivery.lastError });
  }
  if (outcome.final || attempts >= maxAttempts()) {
    if (delivery.eventType !== TEST_EVENT) await countFailure(endpoint.id, outcome.error);
    return finish(deliveryId, "failed", log);
  }
  const retryInMs = retryDelaysMs()[attempts - 1]!;
  await db.webhookDelivery.update({
    where: { id: deliveryId },
    data: { ...log, nextAttemptAt: new Date(Date.now() + retryInMs) },
  });
  return { done: false, retryInMs };
};
