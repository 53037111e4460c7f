/**
 * Calls `/api/health` every `intervalMs` while something else runs and keeps each call's latency: how long the
 * server took to answer while busy. A call still waiting when the next is due does not start another one, so a
 * stalled server shows as one long latency, not as a pile of calls.
 */
export const startHealthProbe = (baseUrl: string, intervalMs = 100) => {
  const samples: { at: number; ms: number; ok: boolean }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const ok = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(120_000) }).then(
        (r) => r.ok,
        () => false,
      );
      samples.push({ at: started, ms: Date.now() - started, ok });
      await new Promise((r) => setTimeout(r, Math.max(0, intervalMs - (Date.now() - started))));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      return {
        calls: samples.length,
        failures: samples.filter((s) => !s.ok).length,
        maxMs: sorted.at(-1) ?? 0,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
        samples,
      };
    },
  };
};
