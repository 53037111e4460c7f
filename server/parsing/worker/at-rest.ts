/**
 * Whether a parse worker is at rest after a job, so the next document meets the process as the last one did. A job
 * that left a timer, a handle or a busy thread behind (work a parser started and never stopped) is not; the worker is
 * then replaced instead of reused.
 */

/** Active handles and requests by kind (the IPC channel, timers, sockets, files). */
export const restingState = () => {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
};

/**
 * Using more than half of a short window's CPU time means something still runs. The engine's own background work
 * (garbage collection, compilation) can fill one window, so a process gets a few windows to come to rest.
 */
const WINDOW_MS = 10;
const WINDOWS = 3;

export const atRest = async (baseline: Map<string, number>): Promise<boolean> => {
  for (const [kind, n] of restingState()) if (n > (baseline.get(kind) ?? 0)) return false;
  for (let i = 0; i < WINDOWS; i++) {
    const before = process.cpuUsage();
    const started = performance.now();
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < (performance.now() - started) / 2) return true;
  }
  return false;
};
