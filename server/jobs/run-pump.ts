import type { Logger } from "@/server/logger";
import { claimRuns, releaseRun, type JobsDb } from "./run-store";

export type ClaimedRun = Awaited<ReturnType<typeof claimRuns>>[number];

type PumpOptions = {
  db: JobsDb;
  /** This executor's `locked_by`. */
  me: string;
  log: Logger;
  functionIds: string[];
  concurrency: number;
  leaseMs: number;
  /** Drives one claimed run to its next wait or its end. */
  drive: (row: ClaimedRun) => Promise<void>;
};

/**
 * The local executor's pump: claims due runs into free slots (at most `concurrency` driven at once) and drives each.
 * A call while a claim is in flight folds into one more round after it; a finished run, a timer set for the end of a
 * backoff or sleep, and the executor's poll all call it.
 */
export const createRunPump = ({ db, me, log, functionIds, concurrency, leaseMs, drive }: PumpOptions) => {
  const stopController = new AbortController();
  const active = new Map<string, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let abandoned = false;
  let stopped = false;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;

  const start = (row: ClaimedRun) => {
    const tracked = drive(row)
      .catch((err) => log.error({ err, runId: row.id, functionId: row.functionId }, "run driver failed"))
      .finally(() => {
        active.delete(row.id);
        void pump();
      });
    active.set(row.id, tracked);
  };

  const claimDue = async () => {
    do {
      pumpAgain = false;
      const free = concurrency - active.size;
      if (free <= 0 || stopped) return;
      // A run whose lease renewal was late (a busy database) must not be driven twice at once by this executor.
      const rows = await claimRuns(db, { me, limit: free, leaseMs, functionIds, driving: [...active.keys()] });
      if (stopped) {
        if (!abandoned) await Promise.all(rows.map((r) => releaseRun(db, { runId: r.id, me })));
        return;
      }
      for (const row of rows) start(row);
      if (rows.length === free) pumpAgain = true;
    } while (pumpAgain);
  };

  const pump = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        await claimDue();
      } catch (err) {
        log.error({ err }, "could not claim runs");
      } finally {
        pumping = undefined;
      }
      if (pumpAgain) await pump();
    })();
    return pumping;
  };

  return {
    pump,
    /** Look for due runs after `ms` (the end of a backoff or sleep), sooner than the next poll would. */
    pumpIn: (ms: number) => {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        void pump();
      }, ms + 5);
      timer.unref();
      timers.add(timer);
    },
    signal: stopController.signal,
    abandoned: () => abandoned,
    stopped: () => stopped,
    /** Runs driven right now. */
    activeCount: () => active.size,
    /** No run driven and no claim in flight. */
    idle: () => !active.size && !pumping,
    /** Stops claiming, cuts in-flight calls and waits for the runs being driven to hand back. */
    stop: async ({ abandon }: { abandon: boolean }) => {
      stopped = true;
      abandoned = abandon;
      for (const timer of timers) clearTimeout(timer);
      stopController.abort();
      await pumping;
      await Promise.all(active.values());
    },
  };
};
