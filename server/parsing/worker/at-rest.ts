import { existsSync, readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/**
 * Whether a parse worker is at rest after a job, so the next document meets the process as the last one did. A job
 * that left a timer, a handle or a busy thread behind (work a parser started and never stopped) is not; the worker is
 * then replaced instead of reused.
 *
 * The engine's own threads are not the job's: after a large parse, V8's helper threads sweep and compile for tens of
 * milliseconds, and counting the whole process's CPU time retired about one worker in four after a PDF (each
 * replacement a cold start of about a second). So the threads of the baseline (those that existed when the worker
 * became ready, and those found idle after an earlier job: V8's helpers, libuv's pool) are left out, and only threads
 * started since then count.
 */

export type RestingState = {
  /** Active handles and requests by kind (the IPC channel, timers, sockets, files). */
  handles: Map<string, number>;
  /** Threads of this process (Linux task ids); null where /proc is not available. */
  threads: Set<number> | null;
};

const TASKS = "/proc/self/task";

const threadIds = (): Set<number> | null => {
  try {
    return new Set(readdirSync(TASKS).map(Number));
  } catch {
    return null;
  }
};

/** Per-thread time on a CPU, in nanoseconds, from the scheduler's statistics (Linux with schedstats). */
const PER_THREAD = existsSync("/proc/self/schedstat");

/** Time on a CPU of each thread not in `known`. */
const newThreadsCpu = (known: Set<number>): Map<number, number> => {
  const cpu = new Map<number, number>();
  for (const tid of threadIds() ?? []) {
    if (known.has(tid)) continue;
    try {
      cpu.set(tid, Number(readFileSync(`${TASKS}/${tid}/schedstat`, "utf8").split(" ")[0]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
};

export const restingState = (): RestingState => {
  const handles = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) handles.set(kind, (handles.get(kind) ?? 0) + 1);
  return { handles, threads: threadIds() };
};

/**
 * Threads started since the baseline must not run for more than a millisecond across the window: a thread spinning on
 * a loaded machine can be kept waiting for a few milliseconds, not for the whole window. (JavaScript left running on
 * the main thread is always scheduled by a handle or a request, which the first check sees.)
 */
const WINDOW_MS = 30;
const RUN_NS = 1_000_000;

export const atRest = async (baseline: RestingState): Promise<boolean> => {
  for (const [kind, n] of restingState().handles) if (n > (baseline.handles.get(kind) ?? 0)) return false;
  const known = PER_THREAD ? baseline.threads : null;
  const threadsBefore = known && newThreadsCpu(known);
  // No thread started since the baseline (a text or a PDF parse starts none): nothing to watch.
  if (threadsBefore && threadsBefore.size === 0) return true;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  if (!known || !threadsBefore) {
    // Without per-thread figures: the whole process used less than half of the window.
    const used = process.cpuUsage(cpuBefore);
    return (used.user + used.system) / 1000 < (performance.now() - started) / 2;
  }
  for (const [tid, ns] of newThreadsCpu(known)) if (ns - (threadsBefore.get(tid) ?? 0) > RUN_NS) return false;
  return true;
};
