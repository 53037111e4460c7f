import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";

/**
 * The executor's side of the SDK's HTTP execution protocol (what the Inngest server sends to `serve()`), as read in
 * inngest@4 `components/InngestCommHandler.js` and `components/execution/engine.js`.
 */

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

const keepAlive = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * node:http rather than fetch: undici's fetch aborts after 300 s without response headers, and a step (one HTTP
 * call) may legitimately run longer. A timeout there would look like a dead endpoint and re-run the step forever.
 */
const post = (url: URL, headers: Record<string, string>, body: string, signal?: AbortSignal) =>
  new Promise<RawResponse>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(
      url,
      { method: "POST", headers, agent: url.protocol === "https:" ? keepAlive.https : keepAlive.http, signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });

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

const header = (h: http.IncomingHttpHeaders, key: string) => {
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
  if (input.signingKey) headers["x-inngest-signature"] = signBody(body, input.signingKey);
  try {
    return classify(await post(url, headers, body, input.signal));
  } catch (error) {
    return { kind: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  }
};
