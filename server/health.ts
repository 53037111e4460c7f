import { db } from "./db";
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

export const checkHealth = async () => {
  const database = await db.$queryRaw`SELECT 1`.then(
    () => true,
    () => false,
  );
  const jobs = jobRunnerReady();
  // Which keyword engine serves searches ("bm25" or the "fulltext" fallback), for operators checking a deployment.
  const keyword = database ? await keywordEngine().catch(() => null) : null;
  return { ok: database && jobs, database, jobs, keywordEngine: keyword };
};
