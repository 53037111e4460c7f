import { errorMessage } from "../errors";
import { ProviderError, parseRetryAfter, redactKey, remoteMessageOf, retryableStatus } from "./errors";
import { recordModelCall } from "./usage";
import { reportedUsage } from "./usage-reported";

/**
 * One POST to a provider's HTTP API (embeddings, rerank, speech) with the retry rule they share: network failures,
 * timeouts, 408/409/429 and 5xx are retried with exponential backoff (or the server's Retry-After, capped); any other
 * status fails at once. A failure is a ProviderError that names the status and quotes what the provider said, never
 * the key; `retryable` tells a job whether its own retry may still succeed once these attempts are spent.
 */

const MAX_RETRY_DELAY_MS = 30_000;

export type PostOptions = {
  url: string;
  /** A JSON value, or FormData for a multipart upload (speech); the same body is sent again on each attempt. */
  body: unknown;
  apiKey?: string;
  fetch?: typeof fetch;
  attempts: number;
  timeoutMs: number;
  /** Base delay of the exponential backoff; tests shorten it. */
  retryDelayMs?: number;
  /**
   * Whether a request that got no answer within `timeoutMs` is sent again (default yes). Speech says no: its
   * requests are minutes long, and three of them would eat the document's whole parse time.
   */
  retryTimeouts?: boolean;
  /** What the request is for, at the start of the error message ("Embedding request"). */
  what?: string;
  /**
   * The model call this request is, for usage (./usage.ts): one record per request, its retries included, with the
   * provider's reported tokens, else `inputChars` / 4 tokens in (estimated).
   */
  record?: {
    capability: "embedding" | "rerank" | "speech";
    model: string;
    inputChars: number;
    /** The usage record's provider: a dashboard provider's name; else the address's host. */
    provider?: string;
  };
};

export type PostReply = { text: string; contentType: string | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/** fetch says "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is its cause. */
export const connectFailure = (error: unknown) =>
  error instanceof Error && error.cause instanceof Error ? error.cause.message : errorMessage(error);

/** The answer's text once the provider accepted the request; throws a ProviderError once the attempts are spent. */
export const postForText = async (options: PostOptions): Promise<PostReply> => {
  const { record } = options;
  if (!record) return postWithRetries(options);
  const started = performance.now();
  const base = { capability: record.capability, provider: record.provider ?? hostOf(options.url), model: record.model };
  const latencyMs = () => Math.round(performance.now() - started);
  try {
    const reply = await postWithRetries(options);
    const usage = reportedUsage(reply.text);
    recordModelCall({
      ...base,
      ...(usage ?? { tokensIn: Math.ceil(record.inputChars / 4), tokensOut: 0 }),
      estimated: !usage,
      latencyMs: latencyMs(),
      ok: true,
    });
    return reply;
  } catch (error) {
    const failure = { tokensIn: 0, tokensOut: 0, estimated: false, ok: false, error: errorMessage(error) };
    recordModelCall({ ...base, ...failure, latencyMs: latencyMs() });
    throw error;
  }
};

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return "unknown";
  }
};

const postWithRetries = async (options: PostOptions): Promise<PostReply> => {
  const doFetch = options.fetch ?? fetch;
  const baseDelay = options.retryDelayMs ?? 500;
  const multipart = options.body instanceof FormData;
  const body = multipart ? (options.body as FormData) : JSON.stringify(options.body);
  const headers: Record<string, string> = multipart ? {} : { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const fail = (detail: string, fields: ConstructorParameters<typeof ProviderError>[1]) =>
    new ProviderError(redactKey(`${options.what ?? "Request"} failed: ${detail}`, options.apiKey), {
      ...fields,
      remoteMessage: fields.remoteMessage ? redactKey(fields.remoteMessage, options.apiKey) : null,
    });

  for (let attempt = 1; ; attempt++) {
    const last = attempt >= options.attempts;
    const backoff = baseDelay * 2 ** (attempt - 1);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(options.url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      // Network failures and timeouts are as transient as a 503.
      const timedOut = isTimeout(error);
      if (!last && (!timedOut || options.retryTimeouts !== false)) {
        await sleep(backoff);
        continue;
      }
      const detail = timedOut
        ? `no answer from ${options.url} within ${Number((options.timeoutMs / 1000).toFixed(1))} s`
        : `could not connect to ${options.url} (${connectFailure(error)})`;
      throw fail(detail, { retryable: true, cause: error });
    }
    if (response.ok) return { text, contentType: response.headers.get("content-type") };
    const retryable = retryableStatus(response.status);
    const retryAfterS = parseRetryAfter(response.headers.get("retry-after"));
    if (retryable && !last) {
      await sleep(retryAfterS !== null ? Math.min(retryAfterS * 1000, MAX_RETRY_DELAY_MS) : backoff);
      continue;
    }
    const remote = remoteMessageOf(text, response.headers.get("content-type")) || response.statusText;
    throw fail(`HTTP ${response.status} from ${options.url}: ${remote}`, {
      retryable,
      status: response.status,
      retryAfterS,
      remoteMessage: remote,
    });
  }
};

/** The parsed JSON answer; throws a ProviderError once the attempts are spent or the status is not retryable. */
export const postJson = async (options: PostOptions): Promise<unknown> => {
  const reply = await postForText(options);
  try {
    return JSON.parse(reply.text);
  } catch (error) {
    throw new ProviderError(`${options.what ?? "Request"} failed: the answer from ${options.url} is not JSON`, {
      retryable: false,
      cause: error,
    });
  }
};
