/**
 * What every provider call throws when the remote model fails. `retryable` says whether trying again can help: a
 * 429, a 5xx, a timeout or a dropped connection can; a 4xx (bad request, bad key, unknown model) cannot. Inside jobs
 * the job's own retries take over (the step rethrows a retryable error); request-time calls retry in place.
 */
export class ProviderError extends Error {
  readonly retryable: boolean;
  /** HTTP status of the remote answer; null when none came (timeout, connection refused). */
  readonly status: number | null;
  /** Seconds the remote asked us to wait (its Retry-After), when it said. */
  readonly retryAfterS: number | null;
  /** The remote's own error text, when it answered with one. */
  readonly remoteMessage: string | null;

  constructor(
    message: string,
    options: {
      retryable: boolean;
      status?: number | null;
      retryAfterS?: number | null;
      remoteMessage?: string | null;
      cause?: unknown;
    },
  ) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
    this.retryable = options.retryable;
    this.status = options.status ?? null;
    this.retryAfterS = options.retryAfterS ?? null;
    this.remoteMessage = options.remoteMessage ?? null;
  }
}

export const isProviderError = (e: unknown): e is ProviderError => e instanceof ProviderError;

/** 408 (request timeout), 409 (OpenAI's "conflict, try again"), 429 and every 5xx are worth another attempt. */
export const retryableStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** Seconds from a Retry-After header (a number of seconds or an HTTP date); null when absent or unreadable. */
export const parseRetryAfter = (value: string | null): number | null => {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : null;
};

const MAX_REMOTE_MESSAGE_CHARS = 300;

/**
 * What a remote said went wrong, from the body of its error answer: the `error.message` (OpenAI, Groq), `error`,
 * `message` or `detail` field of a JSON body, else the body's text without markup, cut to a readable length.
 */
export const remoteMessageOf = (raw: string, contentType: string | null): string => {
  if (contentType?.includes("json") || raw.trimStart().startsWith("{")) {
    try {
      const body = JSON.parse(raw) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
      const message =
        (typeof body.error === "object" ? body.error?.message : body.error) ?? body.message ?? body.detail;
      if (typeof message === "string" && message.trim()) return message.trim().slice(0, MAX_REMOTE_MESSAGE_CHARS);
      if (message !== undefined) return JSON.stringify(message).slice(0, MAX_REMOTE_MESSAGE_CHARS);
    } catch {
      // Not JSON after all: fall through to the raw text.
    }
  }
  return raw
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_REMOTE_MESSAGE_CHARS);
};

/** A remote's text without our key, even when the remote echoes it ("Incorrect API key provided: …"). */
export const redactKey = (text: string, apiKey?: string): string => {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join("***");
  return out.replace(/Bearer\s+\S+/gi, "Bearer ***");
};

/** The error for a non-2xx answer: the remote's own message (never our key), its status, and whether to retry. */
export const providerErrorFromResponse = async (response: Response, what: string): Promise<ProviderError> => {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } | string } | null;
  const remote = typeof body?.error === "string" ? body.error : (body?.error?.message ?? response.statusText);
  return new ProviderError(`${what} failed (HTTP ${response.status}): ${remote}`, {
    retryable: retryableStatus(response.status),
    status: response.status,
    retryAfterS: parseRetryAfter(response.headers.get("retry-after")),
    remoteMessage: remote,
  });
};

export type RetryOptions = {
  /** Attempts after the first one; 0 inside jobs, whose own retries take over. */
  retries?: number;
  /** First backoff in ms, doubled each attempt (plus jitter); a remote Retry-After wins when it is longer. */
  baseDelayMs?: number;
  signal?: AbortSignal;
};

const MAX_DELAY_MS = 20_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Runs `call`, trying again with exponential backoff while it throws a retryable ProviderError. */
export const withRetries = async <T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> => {
  const retries = options.retries ?? 2;
  const base = options.baseDelayMs ?? 500;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isProviderError(error) || !error.retryable || attempt >= retries || options.signal?.aborted) throw error;
      const backoff = base * 2 ** attempt * (1 + Math.random() * 0.25);
      const wait = Math.min(MAX_DELAY_MS, Math.max(backoff, (error.retryAfterS ?? 0) * 1000));
      await sleep(wait, options.signal);
    }
  }
};
