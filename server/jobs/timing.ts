/**
 * Delays the executor computes: retry backoff, and waits that end when it stops. How long a `step.sleep` lasts is the
 * SDK's encoding, read in inngest-sdk.ts (`sleepDelayMs`).
 */

export type Backoff = { baseMs: number; maxMs: number };

/** Exponential (base, 2·base, 4·base, …) up to maxMs, plus up to 20 % jitter so retried runs do not move in lockstep. */
export const backoffMs = (n: number, { baseMs, maxMs }: Backoff): number => {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, n - 1));
  return Math.round(Math.min(maxMs, exp * (1 + Math.random() * 0.2)));
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
