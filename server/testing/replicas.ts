import { hostname } from "node:os";
import type pg from "pg";
import type { QuarryProcess } from "./quarry-process";

/**
 * What the replica suites (server/scale/*.pg.test.ts) and bench/replicas.ts read in the job table of the database two
 * app replicas share: who holds a run (a replica's `locked_by` is `<host>:<pid>`), a job's runs, and waiting for them.
 */

/** The process id in a run's `locked_by`, when a process of this machine holds it. */
export const lockerPid = (lockedBy: string | null) =>
  lockedBy?.startsWith(`${hostname()}:`) ? Number(lockedBy.split(":")[1]) : undefined;

export type JobRun = { status: string; locked_by: string | null };

/** The runs of function `functionId` whose event names `id` in field `field` (e.g. deploy-flow, revisionId). */
export const jobRunsOf = async (sql: pg.Client, functionId: string, field: string, id: string) =>
  (
    await sql.query<JobRun>(
      `SELECT status, locked_by FROM job_runs WHERE function_id LIKE '%' || $1 AND event->'data'->>$2 = $3`,
      [functionId, field, id],
    )
  ).rows;

/** The runs once none is left queued or running (a run ends just after its last step's write), or after ~10 s. */
export const settledJobRunsOf = async (sql: pg.Client, functionId: string, field: string, id: string) => {
  for (let i = 0; i < 100; i++) {
    const runs = await jobRunsOf(sql, functionId, field, id);
    if (runs.every((r) => r.status !== "running" && r.status !== "queued")) return runs;
    await new Promise((r) => setTimeout(r, 100));
  }
  return jobRunsOf(sql, functionId, field, id);
};

/** The replica that holds a running run of the function for `id`, once one does (polled every 20 ms). */
export const waitForHolder = async (
  sql: pg.Client,
  replicas: QuarryProcess[],
  run: { functionId: string; field: string; id: string },
  timeoutMs = 60_000,
) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const runs = await jobRunsOf(sql, run.functionId, run.field, run.id);
    const pid = lockerPid(runs.find((r) => r.status === "running")?.locked_by ?? null);
    const holder = replicas.find((replica) => replica.pid() === pid);
    if (holder) return holder;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no replica took the ${run.functionId} run of ${run.id}`);
};
