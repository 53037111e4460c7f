import type { JobRun, Prisma, PrismaClient } from "@/server/generated/prisma/client";
import type { MemoizedStep, StoredEvent } from "./inngest-sdk";

/**
 * Every statement on job_runs: no other folder reads or writes the table. Each is ONE statement (no interactive
 * transaction: on PGlite a transaction blocks every other connection) and, once a run is claimed, is guarded by
 * `locked_by = <this executor>`, so an executor that lost its lease can no longer change the run. Lease times use the database clock, so replicas agree on expiry.
 */

export type JobsDb = Pick<PrismaClient, "jobRun" | "$executeRaw" | "$queryRaw">;

export type RunStatus = "queued" | "running" | "completed" | "failed";

export type NewRun = { id: string; functionId: string; event: StoredEvent };

const secs = (ms: number) => Math.max(0, ms) / 1000;

export const createRuns = async (db: JobsDb, runs: NewRun[]) => {
  if (!runs.length) return;
  // Run ids are derived from (event id, function id): a re-sent event id starts nothing new.
  await db.jobRun.createMany({
    data: runs.map((r) => ({
      id: r.id,
      functionId: r.functionId,
      eventName: r.event.name,
      event: r.event as unknown as Prisma.InputJsonValue,
    })),
    skipDuplicates: true,
  });
};

export type ClaimedRun = Pick<
  JobRun,
  "id" | "functionId" | "event" | "steps" | "stack" | "nextStepId" | "attempt" | "runAfter" | "createdAt"
>;

/**
 * Claims up to `limit` due runs, of the functions this executor serves, whose lease is free. `FOR UPDATE SKIP
 * LOCKED` plus the re-checked WHERE make two executors racing for the same row get it once.
 */
export const claimRuns = async (
  db: JobsDb,
  {
    me,
    limit,
    leaseMs,
    functionIds,
    driving = [],
  }: {
    me: string;
    limit: number;
    leaseMs: number;
    functionIds: string[];
    /** Runs this executor is driving now: never claimed again, even when their lease ran out (a missed renewal). */
    driving?: string[];
  },
) => {
  if (limit <= 0 || !functionIds.length) return [];
  // A CTE, materialized: as `WHERE id IN (SELECT … LIMIT n)` Postgres may re-run the subquery and claim more than n.
  // The claimed rows come back from the claim itself (a read of them afterwards was one statement per run more).
  const claimed = await db.$queryRaw<ClaimedRun[]>`
    WITH due AS MATERIALIZED (
      SELECT id FROM job_runs
       WHERE status IN ('queued', 'running') AND run_after <= now()
         AND (locked_until IS NULL OR locked_until < now()) AND function_id = ANY(${functionIds}::text[])
         AND NOT (id = ANY(${driving}::uuid[]))
       ORDER BY run_after, created_at
       LIMIT ${limit}::int
       FOR UPDATE SKIP LOCKED)
    UPDATE job_runs AS r
       SET status = 'running', locked_by = ${me},
           locked_until = now() + make_interval(secs => ${secs(leaseMs)}::float8), updated_at = now()
      FROM due
     WHERE r.id = due.id AND r.status IN ('queued', 'running') AND (r.locked_until IS NULL OR r.locked_until < now())
    RETURNING r.id, r.function_id AS "functionId", r.event, r.steps, r.stack, r.next_step_id AS "nextStepId",
              r.attempt, r.run_after AS "runAfter", r.created_at AS "createdAt"`;
  return claimed.sort(
    (a, b) => a.runAfter.getTime() - b.runAfter.getTime() || a.createdAt.getTime() - b.createdAt.getTime(),
  );
};

type Next = { stepId: string; attempt: number };

/** Stores one step result (and, atomically with it, what to call next). False when the lease is no longer ours. */
export const memoizeStep = async (
  db: JobsDb,
  { runId, me, stepId, value, next }: { runId: string; me: string; stepId: string; value: MemoizedStep; next?: Next },
) => {
  const json = JSON.stringify(value);
  const count = next
    ? await db.$executeRaw`
        UPDATE job_runs
           SET steps = steps || jsonb_build_object(${stepId}::text, ${json}::jsonb),
               stack = CASE WHEN ${stepId}::text = ANY(stack) THEN stack ELSE array_append(stack, ${stepId}::text) END,
               next_step_id = ${next.stepId}, attempt = ${next.attempt}::int, updated_at = now()
         WHERE id = ${runId}::uuid AND locked_by = ${me} AND status = 'running'`
    : await db.$executeRaw`
        UPDATE job_runs
           SET steps = steps || jsonb_build_object(${stepId}::text, ${json}::jsonb),
               stack = CASE WHEN ${stepId}::text = ANY(stack) THEN stack ELSE array_append(stack, ${stepId}::text) END,
               updated_at = now()
         WHERE id = ${runId}::uuid AND locked_by = ${me} AND status = 'running'`;
  return count === 1;
};

/**
 * Sets what to call next and when. With `release`, the lease is dropped so the run waits (sleep, backoff) without a
 * concurrency slot, and any executor may pick it up when due.
 */
export const scheduleNext = async (
  db: JobsDb,
  { runId, me, next, delayMs, release }: { runId: string; me: string; next: Next; delayMs: number; release: boolean },
) => {
  const count = await db.$executeRaw`
    UPDATE job_runs
       SET next_step_id = ${next.stepId}, attempt = ${next.attempt}::int,
           run_after = now() + make_interval(secs => ${secs(delayMs)}::float8),
           locked_by = CASE WHEN ${release}::boolean THEN NULL ELSE locked_by END,
           locked_until = CASE WHEN ${release}::boolean THEN NULL ELSE locked_until END,
           updated_at = now()
     WHERE id = ${runId}::uuid AND locked_by = ${me} AND status = 'running'`;
  return count === 1;
};

export const finishRun = async (
  db: JobsDb,
  {
    runId,
    me,
    status,
    output,
    error,
  }: { runId: string; me: string; status: "completed" | "failed"; output?: unknown; error?: string },
) => {
  const json = output === undefined ? null : JSON.stringify(output);
  // status is an enum column: a parameter bound as text would not be assigned to it without the cast.
  const count = await db.$executeRaw`
    UPDATE job_runs
       SET status = ${status}::"JobRunStatus", output = ${json}::jsonb, error = ${error ?? null}::text,
           locked_by = NULL, locked_until = NULL, updated_at = now()
     WHERE id = ${runId}::uuid AND locked_by = ${me} AND status = 'running'`;
  return count === 1;
};

/** Keeps the leases of every run this executor is driving; a step may take far longer than one lease. */
export const renewLeases = (db: JobsDb, { me, leaseMs }: { me: string; leaseMs: number }) =>
  db.$executeRaw`
    UPDATE job_runs SET locked_until = now() + make_interval(secs => ${secs(leaseMs)}::float8)
     WHERE locked_by = ${me} AND status = 'running'`;

/** Hands a run back untouched (shutdown): its memoized steps stay, the next executor continues from them. */
export const releaseRun = (db: JobsDb, { runId, me }: { runId: string; me: string }) =>
  db.$executeRaw`
    UPDATE job_runs SET locked_by = NULL, locked_until = NULL, updated_at = now()
     WHERE id = ${runId}::uuid AND locked_by = ${me} AND status = 'running'`;

/** Frees runs held by executors known to be dead, instead of waiting for their leases to run out. */
export const releaseGoneLockers = async (db: JobsDb, isGone: (lockedBy: string) => boolean) => {
  const lockers = await db.jobRun.findMany({
    where: { status: "running", lockedBy: { not: null } },
    distinct: ["lockedBy"],
    select: { lockedBy: true },
  });
  const gone = lockers.map((l) => l.lockedBy).filter((l): l is string => l !== null && isGone(l));
  if (!gone.length) return 0;
  const { count } = await db.jobRun.updateMany({
    where: { status: "running", lockedBy: { in: gone } },
    data: { lockedBy: null, lockedUntil: null },
  });
  return count;
};

/** Runs not finished that this executor could still get to (its functions, not held by another live executor). */
export const countUnfinished = (db: JobsDb, { me, functionIds }: { me: string; functionIds: string[] }) =>
  db.jobRun.count({
    where: {
      status: { in: ["queued", "running"] },
      functionId: { in: functionIds },
      OR: [{ lockedBy: null }, { lockedBy: me }, { lockedUntil: { lt: new Date() } }],
    },
  });

export type { JobRun };

/**
 * Whether an event whose `data[key]` is `value` started any run here: the launcher sends an unfinished build's event
 * again only when it never reached the executor.
 */
export const hasRunForEventData = async (db: JobsDb, key: string, value: string) => {
  const runs = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM job_runs WHERE event->'data'->>${key}::text = ${value}`;
  return Number(runs[0]?.n ?? 0) > 0;
};

/**
 * How the runs an event id started ended up (not the onFailure handlers' runs): the launcher tells a deletion whose
 * run failed before its failure was recorded (a crash in between) from one whose event never arrived.
 */
export const runsOfEvent = (db: JobsDb, eventId: string) =>
  db.$queryRaw<{ status: RunStatus; error: string | null }[]>`
    SELECT status::text AS status, error FROM job_runs
     WHERE event->>'id' = ${eventId}::text AND function_id NOT LIKE '%-failure'`;
