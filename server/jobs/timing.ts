/** Delays the executor computes: retry backoff and `step.sleep` durations as the SDK encodes them. */

export type Backoff = { baseMs: number; maxMs: number };

/** Exponential (base, 2·base, 4·base, …) up to maxMs, plus up to 20 % jitter so retried runs do not move in lockstep. */
export const backoffMs = (n: number, { baseMs, maxMs }: Backoff): number => {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, n - 1));
  return Math.round(Math.min(maxMs, exp * (1 + Math.random() * 0.2)));
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

/** A wait that ends early when the executor stops; resolves false then. */
export const wait = (ms: number, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(false);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve(!signal.aborted);
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener("abort", done, { once: true });
  });
