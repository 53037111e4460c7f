import { randomUUID } from "node:crypto";
import os from "node:os";
import type { InngestFunction } from "inngest";
import { env } from "@/server/env";
import { logger, type Logger } from "@/server/logger";
import { handleEventRequest, runIdFor, toStoredEvent, type EventInput } from "./event-intake";
import { buildRegistry } from "./function-registry";
import { FUNCTION_FAILED, functionFailedEvent } from "./inngest-sdk";
import { driveRun } from "./run-driver";
import { createRunPump } from "./run-pump";
import { countUnfinished, createRuns, releaseGoneLockers, renewLeases, type JobsDb, type NewRun } from "./run-store";
import { errorText, toRunState, type DriverDeps } from "./run-state";
import { wait } from "./timing";
import { isProcessAlive } from "../concurrency/process-alive";

/**
 * Quarry's local job executor: the part of an Inngest server that Quarry needs, in-process, for machines where no
 * Inngest server can run. Functions stay ordinary Inngest functions behind the real `serve()` route; pointed at a real
 * Inngest server instead, they run there unchanged.
 *
 * How it works
 * - Events come in through `ingestEvent` or `handleEventRequest` (`POST /e/<eventKey>`, what `inngest.send()` calls
 *   when INNGEST_BASE_URL points here). Each event starts one run per function whose trigger matches, read in-process
 *   from the function objects (function-registry.ts). A run is one `job_runs` row; its id derives from (event id,
 *   function id), so a re-sent event starts nothing twice.
 * - A run is driven over real HTTP with the protocol the Inngest server speaks to `serve()` (inngest-sdk.ts,
 *   run-driver.ts): memoized steps go back in every request; each 206 answer is one step result (memoized in
 *   Postgres before the next call), parallel steps (run side by side, at most 8 at once), or sleeps (deadlines
 *   stored). Step errors are retried with attempt + 1 after exponential backoff; function errors (500) retry the
 *   call; 400 + x-inngest-no-retry, or the last attempt (the function's `retries` + 1, default 4), fails the run and
 *   emits `inngest/function.failed`, which runs the function's `onFailure` handler. An unreachable endpoint (app
 *   restarting) is retried without end and costs no attempt.
 * - Requests are signed like the Inngest server signs them (`X-Inngest-Signature`, HMAC-SHA256 with the signing
 *   key), so `serve()` runs in cloud mode and refuses unsigned callers. With no signing key, calls are unsigned and
 *   `serve()` must run with INNGEST_DEV=1.
 * - At most `concurrency` runs hold a claim at once; the rest wait in `queued`. A claim is a lease (`locked_by` =
 *   this instance, `locked_until`), taken by one atomic UPDATE … RETURNING and renewed while the run is driven.
 *   Waiting for a retry or a sleep gives the lease and the slot back. On start, leases of executors known to be dead
 *   (same host, process gone) are freed; any other lease frees itself when it expires. Nothing lives only in memory
 *   except retry counts of parallel steps in flight, so a kill -9 loses at most the step that was running.
 * - Due runs are found by polling (`pollIntervalMs`), and at once after an event, a finished run, or a timer set for
 *   the end of a backoff or sleep.
 * - `job_runs.status`: queued (not started yet), running (started: `locked_by` set while an executor drives it, null
 *   while it waits for `run_after`, for a retry or a sleep), completed (`output`), failed (`error`, the message).
 *
 * Not supported (the run fails with a clear error, or the option is ignored with a warning at start):
 * step.waitForEvent, step.waitForSignal, step.invoke, step.ai.infer, step.fetch, cron triggers, trigger `if`
 * expressions (other than onFailure's), cancelOn, batching, debounce, throttle, rate limits, idempotency keys,
 * per-function concurrency, priority, singleton, timeouts. There is no UI and no run cancellation.
 */

export type LocalExecutorOptions = {
  /** The app's serve() route, e.g. http://127.0.0.1:3000/api/inngest. */
  serveUrl: string;
  /** The functions that route serves. */
  functions: InngestFunction.Any[];
  /** Runs driven at once. Default QUARRY_JOB_CONCURRENCY. */
  concurrency?: number;
  /** How often to look for due runs. Default 1000. */
  pollIntervalMs?: number;
  /**
   * Signs every call; serve() must have the same key. Default INNGEST_SIGNING_KEY. Without one, calls are unsigned
   * and serve() only takes them with INNGEST_DEV=1.
   */
  signingKey?: string;
  /** The key `POST /e/<key>` must carry. Default INNGEST_EVENT_KEY; with neither, any key is accepted. */
  eventKey?: string;
  /** Defaults to the app's Prisma client. */
  db?: JobsDb;
  /** Claim length; renewed every third of it while a run is driven. Default 30 s. */
  leaseMs?: number;
  /** Retry backoff: baseMs, 2·baseMs, 4·baseMs … up to maxMs (plus jitter). Default 1 s … 5 min. */
  backoff?: { baseMs?: number; maxMs?: number };
};

export type LocalExecutor = {
  /** `locked_by` value of this instance. */
  instanceId: string;
  /** Starts one run per matching function; resolves with their ids once they are stored. */
  ingestEvent: (event: EventInput) => Promise<string[]>;
  /** `POST /e/<eventKey>` as `inngest.send()` expects it: `{ ids: [event ids], status: 200 }`. */
  handleEventRequest: (req: Request) => Promise<Response>;
  /** Test helper: resolves once no unfinished run is left that this executor could drive (waits through sleeps). */
  drain: () => Promise<void>;
  /**
   * Stops polling, cuts in-flight calls and hands running runs back for the next executor. `abandon: true` writes
   * nothing more instead, leaving the database exactly as a kill -9 would (for tests).
   */
  stop: (opts?: { abandon?: boolean }) => Promise<void>;
};

/** Executors alive in this process: a lock held by a same-pid instance that is not in here is a previous life. */
const liveInstances = new Set<string>();

/** `host:pid:nonce`. Dead when on this host and its process is gone, or it is this process but not a live instance. */
const isGone = (lockedBy: string) => {
  const [host, pidText] = lockedBy.split(":");
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid)) return false;
  return pid === process.pid ? !liveInstances.has(lockedBy) : !isProcessAlive(pid);
};

/** The executor's settings: the options given, else the environment's. */
const settingsOf = (options: LocalExecutorOptions) => ({
  leaseMs: options.leaseMs ?? 30_000,
  pollIntervalMs: options.pollIntervalMs ?? 1000,
  concurrency: Math.max(1, Math.floor(options.concurrency ?? env.QUARRY_JOB_CONCURRENCY)),
  signingKey: options.signingKey ?? env.INNGEST_SIGNING_KEY,
  eventKey: options.eventKey ?? env.INNGEST_EVENT_KEY,
  backoff: { baseMs: options.backoff?.baseMs ?? 1000, maxMs: options.backoff?.maxMs ?? 300_000 },
});

/** Polls for due runs, and renews this executor's leases while it drives any; both stop with `clear`. */
const startTimers = (
  { db, me, log }: { db: JobsDb; me: string; log: Logger },
  { leaseMs, pollIntervalMs }: { leaseMs: number; pollIntervalMs: number },
  pump: ReturnType<typeof createRunPump>,
) => {
  const poll = setInterval(() => void pump.pump(), pollIntervalMs);
  poll.unref();
  const heartbeat = setInterval(
    () => {
      if (pump.activeCount()) {
        renewLeases(db, { me, leaseMs }).catch((err) => log.error({ err }, "could not renew leases"));
      }
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();
  return () => {
    clearInterval(poll);
    clearInterval(heartbeat);
  };
};

export const startLocalExecutor = async (options: LocalExecutorOptions): Promise<LocalExecutor> => {
  const db = options.db ?? (await import("@/server/db")).db;
  const me = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = logger.child({ component: "local-executor", instanceId: me });
  const settings = settingsOf(options);
  const { concurrency, leaseMs, signingKey, eventKey } = settings;
  const registry = buildRegistry(options.functions, options.serveUrl);
  const functionIds = [...registry.functions.keys()];
  for (const warning of registry.warnings) log.warn(warning);
  if (eventKey === undefined) log.warn("no event key configured: the event endpoint accepts any key");
  if (!signingKey) log.warn("no signing key: calls are unsigned, so serve() must run with INNGEST_DEV=1");

  const ingestMany = async (events: { input: EventInput; id?: string }[]) => {
    const stored = events.map(({ input, id }) => toStoredEvent(input, id));
    const runs: NewRun[] = stored.flatMap((event) =>
      registry.route(event).map((fn) => ({ id: runIdFor(event.id, fn.id), functionId: fn.id, event })),
    );
    await createRuns(db, runs);
    if (runs.length) log.debug({ events: stored.map((e) => e.name), runs: runs.length }, "events ingested");
    void pump.pump();
    return { eventIds: stored.map((e) => e.id), runIds: runs.map((r) => r.id) };
  };

  const pump = createRunPump({
    ...{ db, me, log, functionIds, concurrency, leaseMs },
    drive: (row) => {
      const fn = registry.functions.get(row.functionId)!; // claimRuns only returns runs of these functions
      return driveRun(deps, toRunState(row, fn, log.child({ runId: row.id, functionId: row.functionId })));
    },
  });
  const deps: DriverDeps = {
    db,
    me,
    serveUrl: options.serveUrl,
    signingKey,
    backoff: settings.backoff,
    signal: pump.signal,
    abandoned: pump.abandoned,
    wakeIn: (ms) => pump.pumpIn(ms),
    unavailableStreak: new Map(),
    // Failures of handlers for failures start nothing: a catch-all handler must not feed on its own failures.
    onFailed: async (run, error) => {
      if (run.event.name === FUNCTION_FAILED) return;
      const failed = { functionId: run.fn.id, runId: run.id, message: errorText(error), error, event: run.event };
      await ingestMany([{ input: functionFailedEvent(failed) }]);
    },
  };

  liveInstances.add(me);
  const freed = await releaseGoneLockers(db, isGone);
  if (freed) log.info({ runs: freed }, "took over runs of an executor that is gone");
  const clearTimers = startTimers({ db, me, log }, settings, pump);
  await pump.pump();
  log.info({ functions: registry.functions.size, concurrency }, "local job executor started");

  return {
    instanceId: me,
    ingestEvent: async (event) => (await ingestMany([{ input: event }])).runIds,
    handleEventRequest: (req) =>
      handleEventRequest(req, { eventKey, ingest: async (events) => (await ingestMany(events)).eventIds }),
    drain: async () => {
      const idle = new AbortController().signal;
      while (!pump.stopped()) {
        if (pump.idle() && (await countUnfinished(db, { me, functionIds })) === 0) return;
        await wait(20, idle);
      }
    },
    stop: async (opts) => {
      if (pump.stopped()) return;
      clearTimers();
      await pump.stop({ abandon: Boolean(opts?.abandon) });
      liveInstances.delete(me);
      log.info({ abandoned: pump.abandoned() }, "local job executor stopped");
    },
  };
};
