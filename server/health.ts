import { db, lastDatabaseAnswerAt } from "./db";
import { keywordEngine } from "./retrieval/keyword-engine";

/**
 * Readiness shared between the launcher (which starts the job runner) and the /api/health route. Both run in one
 * process but in different module graphs (tsx and Next's bundle), so the flag lives on globalThis.
 */
const READY = Symbol.for("quarry.jobRunnerReady");
type WithFlag = typeof globalThis & { [READY]?: boolean };

export const markJobRunnerReady = (ready: boolean) => {
  (globalThis as WithFlag)[READY] = ready;
};

export const jobRunnerReady = () => (globalThis as WithFlag)[READY] === true;

/** How long health waits for its own `SELECT 1` before it judges by the database's other answers. */
const PROBE_WAIT_MS = 500;
/** A database that answered nothing for this long while health's probe waits is reported down. */
const SILENT_MS = 10_000;

/** At most one probe in flight: checks that pile up behind a busy database would take every pooled connection. */
let probe: Promise<boolean> | null = null;
const probeDatabase = () =>
  (probe ??= db.$queryRaw`SELECT 1`
    .then(
      () => true,
      () => false,
    )
    .finally(() => {
      probe = null;
    }));

/**
 * "up", "busy" or "down". The embedded database has one session: while a build's write holds it, `SELECT 1` waits
 * its turn. A database whose probe waits but that answered other queries within SILENT_MS is busy, not down; one
 * that answered nothing for that long, or refused the probe, is down.
 */
const databaseState = async (): Promise<"up" | "busy" | "down"> => {
  const waited = new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), PROBE_WAIT_MS).unref());
  const answer = await Promise.race([probeDatabase(), waited]);
  if (answer === "waiting") return Date.now() - lastDatabaseAnswerAt() < SILENT_MS ? "busy" : "down";
  return answer ? "up" : "down";
};

export const checkHealth = async () => {
  const state = await databaseState();
  const database = state !== "down";
  const jobs = jobRunnerReady();
  // Which keyword engine serves searches ("bm25" or the "fulltext" fallback), for operators checking a deployment.
  const keyword = state === "up" ? await keywordEngine().catch(() => null) : null;
  return { ok: database && jobs, database, busy: state === "busy", jobs, keywordEngine: keyword };
};
