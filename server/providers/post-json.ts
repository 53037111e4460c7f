/**
 * One JSON POST to a provider's HTTP API (embeddings, rerank) with the retry rule they share: network failures,
 * timeouts, 429 and 5xx are retried with exponential backoff (or the server's Retry-After, capped); any other status
 * fails at once. A failure names the status and quotes the start of the body, where providers say what went wrong.
 */

const MAX_RETRY_DELAY_MS = 30_000;

export type PostJsonOptions = {
  url: string;
  body: unknown;
  apiKey?: string;
  fetch?: typeof fetch;
  attempts: number;
  timeoutMs: number;
  /** Base delay of the exponential backoff; tests shorten it. */
  retryDelayMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const excerpt = (body: string) => body.replace(/\s+/g, " ").trim().slice(0, 300);

const retryAfterMs = (response: Response): number | null => {
  const header = response.headers.get("retry-after");
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(seconds * 1000, MAX_RETRY_DELAY_MS);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.min(Math.max(date - Date.now(), 0), MAX_RETRY_DELAY_MS) : null;
};

/** The parsed JSON answer; throws `Error(lastError)` once the attempts are spent or the status is not retryable. */
export const postJson = async (options: PostJsonOptions): Promise<unknown> => {
  const doFetch = options.fetch ?? fetch;
  const baseDelay = options.retryDelayMs ?? 500;
  const body = JSON.stringify(options.body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let lastError = "";
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    let response: Response;
    try {
      response = await doFetch(options.url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      // Network failures and timeouts are as transient as a 503.
      lastError = `request to ${options.url} failed (${error instanceof Error ? error.message : String(error)})`;
      if (attempt < options.attempts) await sleep(baseDelay * 2 ** (attempt - 1));
      continue;
    }
    if (response.ok) return response.json();
    const text = await response.text().catch(() => "");
    lastError = `HTTP ${response.status} from ${options.url}: ${excerpt(text) || response.statusText}`;
    const retryable = response.status === 429 || response.status >= 500;
    if (!retryable || attempt === options.attempts) break;
    await sleep(retryAfterMs(response) ?? baseDelay * 2 ** (attempt - 1));
  }
  throw new Error(lastError);
};
