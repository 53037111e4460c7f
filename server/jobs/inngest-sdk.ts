import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { InngestFunction } from "inngest";
import { post, type RawResponse } from "./http-post";

/**
 * Everything the local executor takes from the Inngest SDK beyond its public API, in this one file: the HTTP protocol
 * the Inngest server speaks to `serve()`, the event API that `inngest.send()` calls, the signature both sides check,
 * the encodings of step ids and sleeps, and the SDK's private function config. Read in inngest@4.24.0
 * (components/InngestCommHandler.js, components/execution/engine.js, components/Inngest.js,
 * components/InngestFunction.js, helpers/net.js, helpers/strings.js), which package.json pins exactly.
 *
 * Upgrading `inngest` (or `@inngest/test`): none of this is the SDK's promise, so a minor release may change it
 * without a word. What would break, and the test that says so:
 * - the request `serve()` takes (payload `version: 2`, `ctx.stack`, the `fnId`/`stepId` query) or the answers it
 *   gives (206 ops, 200 output, 400 + x-inngest-no-retry, 500, x-inngest-sdk-handled, the 201 streaming wrapper):
 *   local-executor.int.test.ts, which drives real `serve()` handlers (inngest/node and inngest/next);
 * - op codes and the step id of a function-level result (`COMPLETE_ID`), sleeps (`sleepDelayMs`): the same test's
 *   sequential, parallel, retry, onFailure and step.sleep cases, and timing.test.ts;
 * - the signature (`signBody`, `canonicalJson`, the five minutes it is valid): inngest-sdk.test.ts (against the
 *   `canonicalize` package the SDK verifies with), executor-only.test.ts, and local-executor.int.test.ts's
 *   "serve() refuses calls that are not signed";
 * - the private `getConfig` and `client.id` (function ids, retries, the onFailure trigger): function-registry.test.ts;
 * - the event API (`x-inngest-event-id-seed`, the `{ ids, status }` answer): event-intake.test.ts and
 *   local-executor.int.test.ts's "accepts inngest.send() from the app's client";
 * - event triggers and `step.run` as the app's functions use them: inngest/functions/*.test.ts (`@inngest/test`).
 */

// ---- The serve() protocol: what goes in and out of one call ----

/** A memoized step in the SDK's wire form. */
export type MemoizedStep = { type: "data"; data: unknown } | { type: "error"; error: SerializedError };

export type SerializedError = { name?: string; message?: string; stack?: string; [key: string]: unknown };

export type StoredEvent = { name: string; data: Record<string, unknown>; id: string; ts: number; v?: string };

/** An op the SDK reports back in a 206 response. */
export type OutgoingOp = {
  id: string;
  op: string;
  name?: string;
  displayName?: string;
  data?: unknown;
  error?: SerializedError;
  opts?: Record<string, unknown>;
};

export type CallOutcome =
  /** 206: steps ran or were found. */
  | { kind: "ops"; ops: OutgoingOp[]; retryAfterMs?: number }
  /** 200: the function returned. */
  | { kind: "completed"; output: unknown }
  /** 400 with x-inngest-no-retry: the function failed for good (last attempt, NonRetriableError, bad event). */
  | { kind: "failed"; error: SerializedError }
  /** 500 (or another retriable 4xx/5xx): the function threw; retry the same call with attempt + 1. */
  | { kind: "retry"; error: SerializedError; retryAfterMs?: number }
  /** The endpoint did not answer as an Inngest endpoint (down, restarting, misrouted, refused our signature). */
  | { kind: "unavailable"; reason: string };

export type CallInput = {
  serveUrl: string;
  functionId: string;
  /** "step" lets the SDK choose; a hashed step id runs exactly that step. */
  stepId: string;
  runId: string;
  event: StoredEvent;
  steps: Record<string, MemoizedStep>;
  stack: string[];
  attempt: number;
  maxAttempts: number;
  signingKey?: string;
  signal?: AbortSignal;
};

export const OpCode = {
  StepRun: "StepRun",
  StepError: "StepError",
  StepFailed: "StepFailed",
  StepPlanned: "StepPlanned",
  Sleep: "Sleep",
  RunComplete: "RunComplete",
  DiscoveryRequest: "DiscoveryRequest",
  DeferAdd: "DeferAdd",
  DeferAbort: "DeferAbort",
} as const;

// ---- Function configs: the SDK's private `getConfig`, the payload `serve()` would register with a server ----

/** A function's config as the SDK registers it (only the fields the executor reads are typed). */
export type FunctionConfig = {
  id: string;
  triggers?: Array<{ event?: string; expression?: string; cron?: string }>;
  steps?: Record<string, { retries?: { attempts?: number } }>;
  [option: string]: unknown;
};

type Configurable = { getConfig: (opts: { baseUrl: URL; appPrefix: string }) => FunctionConfig[] };

/**
 * The configs `serve()` routes on (`<appId>-<fnId>`, and `-failure` for an onFailure handler). Both members are
 * internal to the SDK (typed private/protected), hence the cast; `serve()` reads them the same way.
 */
export const functionConfigs = (fn: InngestFunction.Any, serveUrl: string): FunctionConfig[] => {
  const internal = fn as unknown as Configurable & { client: { id: string } };
  return internal.getConfig({ baseUrl: new URL(serveUrl), appPrefix: internal.client.id });
};

/** Retries when a function sets none. */
const DEFAULT_RETRIES = 3;

/** A function's retries, where the SDK's config keeps them. */
export const retriesOf = (config: FunctionConfig) => config.steps?.step?.retries?.attempts ?? DEFAULT_RETRIES;

/** The event a run that failed for good emits; it starts the function's onFailure handler. */
export const FUNCTION_FAILED = "inngest/function.failed";

/** The one trigger expression understood: the one the SDK itself writes for onFailure handlers. */
export const failedFunctionFilter = (expression: string) =>
  /^\s*event\.data\.function_id\s*==\s*['"]([^'"]+)['"]\s*$/.exec(expression)?.[1];

/** The function a FUNCTION_FAILED event is about, matched against the id `failedFunctionFilter` read. */
export const failedFunctionId = (data: Record<string, unknown>) => data.function_id;

/** FUNCTION_FAILED for a run, with the payload the SDK hands to the onFailure handler. */
export const functionFailedEvent = (run: {
  functionId: string;
  runId: string;
  message: string;
  error: SerializedError;
  event: StoredEvent;
}) => ({
  name: FUNCTION_FAILED,
  data: {
    function_id: run.functionId,
    run_id: run.runId,
    error: { name: "Error", message: run.message, ...run.error },
    event: run.event,
  },
});

// ---- Ops: how the SDK reports steps, sleeps and results ----

/** The id the SDK gives function-level results it reports as ops (sha1 of "complete", engine.js). */
export const COMPLETE_ID = createHash("sha1").update("complete").digest("hex");

/** Ops of step tools that need an Inngest server, by the tool's name. */
export const SERVER_ONLY_OPS: Record<string, string> = {
  WaitForEvent: "step.waitForEvent",
  WaitForSignal: "step.waitForSignal",
  InvokeFunction: "step.invoke",
  AIGateway: "step.ai.infer",
  Gateway: "step.fetch",
};

const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/**
 * Milliseconds until a Sleep op ends. `step.sleep` sends a duration as "1w2d3h4m5s" (the SDK's `timeStr`, minimum
 * 1s); `step.sleepUntil` sends an ISO timestamp. Unreadable values sleep 0 rather than block the run forever.
 */
export const sleepDelayMs = (name: string | undefined, now = Date.now()): number => {
  const value = (name ?? "").trim();
  if (/^(\d+[wdhms])+$/.test(value)) {
    let total = 0;
    for (const [, n, unit] of value.matchAll(/(\d+)([wdhms])/g)) total += Number(n) * (UNIT_MS[unit as string] ?? 0);
    return total;
  }
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : 0;
};

// ---- Signatures: how the Inngest server signs its calls and `serve()` checks them ----

/** RFC 8785 canonical JSON, byte for byte what the SDK's `canonicalize` dependency produces: it signs that form. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => canonicalJson(v === undefined || typeof v === "symbol" ? null : v)).join(",")}]`;
  }
  const record = value as Record<string, unknown>;
  const parts = Object.keys(record)
    .sort()
    .filter((k) => record[k] !== undefined && typeof record[k] !== "symbol")
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`);
  return `{${parts.join(",")}}`;
};

/**
 * `X-Inngest-Signature: t=<unix seconds>&s=<hex HMAC-SHA256(canonical body + t)>`, keyed with the signing key minus
 * its `signkey-<env>-` prefix taken as text (not hex-decoded), as `signDataWithKey` in inngest's helpers/net.js does.
 */
export const signBody = (canonicalBody: string, signingKey: string, now = Date.now()): string => {
  const ts = Math.round(now / 1000).toString();
  const key = signingKey.replace(/^signkey-[\w]+-/, "");
  const mac = createHmac("sha256", key)
    .update(canonicalBody + ts)
    .digest("hex");
  return `t=${ts}&s=${mac}`;
};

/** The SDK accepts a signature for five minutes; so do we. */
const SIGNATURE_MAX_AGE_MS = 5 * 60_000;

/** The header carrying the signature. */
export const SIGNATURE_HEADER = "x-inngest-signature";

/** `t=<unix s>&s=<hex>` (`signBody`) over the body exactly as received, recent, with `signingKey`. */
export const hasValidSignature = (body: string, header: string | null, signingKey: string, now = Date.now()) => {
  if (!header) return false;
  const params = new URLSearchParams(header);
  const t = params.get("t") ?? "";
  const given = params.get("s") ?? "";
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(given)) return false;
  const at = Number(t) * 1000;
  if (Math.abs(now - at) > SIGNATURE_MAX_AGE_MS) return false;
  const expected = new URLSearchParams(signBody(body, signingKey, at)).get("s") ?? "";
  return timingSafeEqual(Buffer.from(given, "hex"), Buffer.from(expected, "hex"));
};

// ---- The event API: `POST <baseUrl>/e/<eventKey>` as `inngest.send()` calls it ----

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const base32 = (value: bigint, length: number) => {
  let out = "";
  for (let i = 0; i < length; i++) {
    out = CROCKFORD[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
};

/** A ULID, the id format Inngest gives events: 48 bits of milliseconds, 80 bits of entropy. */
export const ulid = (timeMs = Date.now(), entropy: Uint8Array = randomBytes(10)) =>
  base32(BigInt(timeMs), 10) +
  base32(BigInt(`0x${Buffer.from(entropy).toString("hex") || "0"}`) & ((1n << 80n) - 1n), 16);

/** The header `inngest.send()` seeds its event ids with. */
export const EVENT_ID_SEED_HEADER = "x-inngest-event-id-seed";

/**
 * `inngest.send()` retries a failed POST, and sends `x-inngest-event-id-seed: <ms>,<base64 entropy>` so the server
 * can give the events of every retry the same ids (entropy + index), which makes the retry start no runs twice.
 */
export const seededIds = (seed: string | null, count: number): (string | undefined)[] => {
  const [ms, b64] = (seed ?? "").split(",");
  const time = Number(ms);
  const entropy = b64 ? Buffer.from(b64, "base64") : undefined;
  if (!Number.isSafeInteger(time) || !entropy || entropy.length !== 10)
    return Array.from({ length: count }, () => undefined);
  const base = BigInt(`0x${entropy.toString("hex")}`);
  return Array.from({ length: count }, (_, i) => {
    const bytes = Buffer.from(((base + BigInt(i)) & ((1n << 80n) - 1n)).toString(16).padStart(20, "0"), "hex");
    return ulid(time, bytes);
  });
};

/** Event names the Inngest server keeps for itself: they cannot be sent. */
export const isReservedEventName = (name: string) => name.startsWith("inngest/");

/** An answer of the event API, in the shape `inngest.send()` parses (`{ ids, status }` or `{ error, status }`). */
export const eventApiResponse = (status: number, body: { ids: string[] } | { error: string }) =>
  Response.json({ ...body, status }, { status });

// ---- One call to serve() ----

const parseJson = (text: string): unknown => {
  try {
    return text.trim() === "" ? null : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The serialized error the SDK sends for a function failure, or undefined when the body is something else. */
const asError = (body: unknown): SerializedError | undefined => {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const e = body as SerializedError;
  if (typeof e.message === "string" || typeof e.name === "string") return e;
  if (typeof e.error === "string") return { name: "Error", message: e.error };
  return undefined;
};

/** `retry-after` is either seconds or an HTTP date (RetryAfterError sends an ISO date). */
export const parseRetryAfter = (value: string | string[] | undefined, now = Date.now()): number | undefined => {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
};

const header = (h: RawResponse["headers"], key: string) => {
  const v = h[key];
  return Array.isArray(v) ? v[0] : v;
};

/** Statuses that mean "this is not (yet) an Inngest endpoint answering us", as opposed to a function outcome. */
const UNAVAILABLE = new Set([401, 403, 404, 405, 408, 429, 502, 503, 504]);

const classify = (res: RawResponse): CallOutcome => {
  // Streaming mode (INNGEST_STREAMING): 201, whitespace heartbeats, then {status, headers, body} of the real answer.
  if (res.status === 201) {
    const wrapped = parseJson(res.body) as
      { status?: number; headers?: Record<string, string>; body?: string } | undefined;
    if (!wrapped || typeof wrapped.status !== "number") return { kind: "unavailable", reason: "malformed stream" };
    const headers = Object.fromEntries(Object.entries(wrapped.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return classify({ status: wrapped.status, headers, body: wrapped.body ?? "" });
  }
  // serve() marks every answer it gives, even a refused signature; anything else is the framework, a proxy or the
  // wrong URL, and must not be taken for a function outcome.
  if (header(res.headers, "x-inngest-sdk-handled") !== "true") {
    return { kind: "unavailable", reason: `HTTP ${res.status} not from serve(): ${res.body.slice(0, 200)}` };
  }
  const body = parseJson(res.body);
  if (res.status === 206) {
    if (body === undefined) return { kind: "unavailable", reason: "206 without a JSON body" };
    const ops = (Array.isArray(body) ? body : [body]) as OutgoingOp[];
    return { kind: "ops", ops, retryAfterMs: parseRetryAfter(res.headers["retry-after"]) };
  }
  if (res.status === 200) {
    if (body === undefined) return { kind: "unavailable", reason: "200 without a JSON body" };
    return { kind: "completed", output: body };
  }
  if (UNAVAILABLE.has(res.status) || body === undefined) {
    return { kind: "unavailable", reason: `HTTP ${res.status}: ${res.body.slice(0, 200)}` };
  }
  const error = asError(body);
  // A 5xx without a serialized error is the framework or a misconfigured serve() (e.g. cloud mode without a signing
  // key answers {"code":"internal_server_error"}), not the function: it must not use up the run's attempts.
  if (!error && res.status >= 500)
    return { kind: "unavailable", reason: `HTTP ${res.status}: ${res.body.slice(0, 200)}` };
  const failure = error ?? { name: "Error", message: `HTTP ${res.status}` };
  if (header(res.headers, "x-inngest-no-retry") === "true") return { kind: "failed", error: failure };
  return { kind: "retry", error: failure, retryAfterMs: parseRetryAfter(res.headers["retry-after"]) };
};

/** One execution request, exactly as the Inngest server would send it. */
export const callServe = async (input: CallInput): Promise<CallOutcome> => {
  const url = new URL(input.serveUrl);
  url.searchParams.set("fnId", input.functionId);
  url.searchParams.set("stepId", input.stepId);
  const payload = {
    version: 2,
    event: input.event,
    events: [input.event],
    steps: input.steps,
    ctx: {
      run_id: input.runId,
      attempt: input.attempt,
      max_attempts: input.maxAttempts,
      disable_immediate_execution: false,
      use_api: false,
      stack: { stack: input.stack, current: Math.max(0, input.stack.length - 1) },
    },
  };
  const body = canonicalJson(payload);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body).toString(),
    "x-inngest-req-version": "2",
    "x-inngest-server-kind": input.signingKey ? "cloud" : "dev",
  };
  if (input.signingKey) headers[SIGNATURE_HEADER] = signBody(body, input.signingKey);
  try {
    return classify(await post(url, headers, body, input.signal));
  } catch (error) {
    return { kind: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  }
};
