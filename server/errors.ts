/**
 * The one error type the domain throws. Its code decides the HTTP status (public REST) and the tRPC code
 * (dashboard); its message is what the client sees, so it must be written for a person.
 */
export const appErrorStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  LENGTH_REQUIRED: 411,
  PAYLOAD_TOO_LARGE: 413,
  /** A document Quarry cannot parse (format, content or missing system tool). Ends a build as failed. */
  UNPROCESSABLE: 422,
  /** A per-token limit (request rate, concurrent uploads, screenshot queue); the answer says when to retry. */
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  /** A system tool the request needs is not installed on this server (e.g. LibreOffice for an Office page image). */
  UNAVAILABLE: 503,
  TIMEOUT: 504,
} as const;

export type AppErrorCode = keyof typeof appErrorStatus;

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** Seconds after which a refused request may be tried again (the `Retry-After` header of a 429). */
  readonly retryAfterS?: number;
  /**
   * The failure is transient (a model answered 429 or 5xx, or timed out): a job may try the same work again. Taken
   * from the cause when that is a provider error that says so.
   */
  readonly retryable: boolean;

  constructor(
    code: AppErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterS?: number; retryable?: boolean },
  ) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
    this.retryAfterS = options?.retryAfterS;
    this.retryable = options?.retryable ?? (options?.cause as { retryable?: unknown } | undefined)?.retryable === true;
  }

  get status(): number {
    return appErrorStatus[this.code];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/**
 * Whether trying the same work again can only fail again: a document or request Quarry refused. Internal errors
 * (database, a worker that did not start) and transient ones (a model's 429, 5xx or timeout) are worth a retry.
 */
export const isFinalFailure = (e: unknown): boolean => e instanceof AppError && e.code !== "INTERNAL" && !e.retryable;

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Text a person can read and Postgres can store: control characters out (line breaks and tabs stay). A damaged
 * file's part name carried U+0000 into a parse error; a text column refuses it, so the build could not be marked
 * failed and never ended (BENCH_ONLY=hostile, 3 of 2,000 variants).
 */
export const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
