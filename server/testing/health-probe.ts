/**
 * Calls something every `intervalMs` while something else runs and keeps each call's latency: how long the server
 * took to answer while busy. A call still waiting when the next is due does not start another one, so a stalled
 * server shows as one long latency, not as a pile of calls. A call fails when it answers other than 2xx or has not
 * answered within `timeoutMs` (its latency is then the timeout).
 */
export const startProbe = (
  request: (signal: AbortSignal) => Promise<Response>,
  { intervalMs = 100, timeoutMs = 120_000 }: { intervalMs?: number; timeoutMs?: number } = {},
) => {
  const samples: { at: number; ms: number; ok: boolean }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      // The timeout covers the body too: a body that stops arriving rejects its read.
      const ok = await request(AbortSignal.timeout(timeoutMs))
        .then(async (r) => (await r.arrayBuffer(), r.ok))
        .catch(() => false);
      samples.push({ at: started, ms: Date.now() - started, ok });
      await new Promise((r) => setTimeout(r, Math.max(0, intervalMs - (Date.now() - started))));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return summarize(samples);
    },
  };
};

export type ProbeSample = { at: number; ms: number; ok: boolean };

export const summarize = (samples: ProbeSample[]) => {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return {
    calls: samples.length,
    failures: samples.filter((s) => !s.ok).length,
    maxMs: sorted.at(-1) ?? 0,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
    samples,
  };
};

/** `/api/health` every `intervalMs` (default 100 ms). */
export const startHealthProbe = (baseUrl: string, intervalMs = 100, timeoutMs = 120_000) =>
  startProbe((signal) => fetch(`${baseUrl}/api/health`, { signal }), { intervalMs, timeoutMs });
