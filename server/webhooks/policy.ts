import { env } from "../env";

/**
 * The delivery policy, from the environment (README "Webhooks" documents the defaults): the first attempt goes at
 * once, each retry after the next delay of the schedule (5 s, 1 min, 10 min, 1 h, 6 h: six attempts over about seven
 * hours, close to the Standard Webhooks guidance), each attempt within the time limit; an endpoint whose deliveries
 * fail every attempt QUARRY_WEBHOOK_DISABLE_AFTER times in a row is disabled.
 */

/**
 * Milliseconds to wait before retry n (0-based); a malformed entry falls back to the default schedule. The wait is a
 * durable sleep, whose resolution is a second (shorter ones round up).
 */
export const retryDelaysMs = (): number[] => {
  const parsed = env.QUARRY_WEBHOOK_RETRY_SCHEDULE_S.split(",").map((s) => Number(s.trim()));
  const valid = parsed.length > 0 && parsed.every((n) => Number.isFinite(n) && n >= 0 && n <= 7 * 24 * 3600);
  return (valid ? parsed : [5, 60, 600, 3600, 21600]).map((s) => Math.round(s * 1000));
};

export const maxAttempts = () => retryDelaysMs().length + 1;

export const attemptTimeoutMs = () => env.QUARRY_WEBHOOK_TIMEOUT_MS;

export const disableAfter = () => env.QUARRY_WEBHOOK_DISABLE_AFTER;
