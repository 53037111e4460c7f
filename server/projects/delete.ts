import { db } from "../db";
import { jobRunner } from "../env";
import { BUILD_CANCELLED_REASON } from "../ingestion/build-context";
import { AppError, printable } from "../errors";
import { projectDeleteRequested } from "../jobs/events";
import { runsOfEvent } from "../jobs/run-store";
import { sendJobEvent } from "../jobs/send";
import { fileStore } from "../storage";
import { getProject } from "./service";

/**
 * Deleting a project: an admin types its name, the project is flagged (`deletingAt`: its API tokens and dashboard
 * changes are refused from then on, server/trpc/init.ts), and a job (inngest/functions/delete-project.ts) removes its
 * data one step at a time, recording progress on the row. Every step deletes by project id only and is idempotent, so
 * a run that crashed resumes at the step that was running. The project row goes last; the foreign keys' cascades take
 * whatever a step did not name (usage records, graph rows, prompts). Builds still queued or running are cancelled
 * when the deletion starts (their jobs stop at their next step). A job that fails for good records why
 * (`deletionError`); an admin can then retry it, which starts a new run of the same idempotent steps.
 */

/** The job's steps in order. Webhooks first (nothing more is sent out), tokens next to last (clients get 409 until
 * the end rather than 401), the row itself last. */
export const DELETION_STEPS = [
  "webhooks",
  "conversations",
  "evaluations",
  "flows",
  "chunks",
  "elements",
  "sources",
  "files",
  "tokens",
  "project",
] as const;
export type DeletionStep = (typeof DELETION_STEPS)[number];

/** Rows per statement for the big tables: a statement stays short, so other projects' queries are not held up. */
const BATCH = 500;

const inBatches = async (remove: () => Promise<number>) => {
  let total = 0;
  for (let n = await remove(); n > 0; n = await remove()) total += n;
  return total;
};

/** Removes one step's share of a project's data; returns how many rows (or file folders) went. */
const removers: Record<DeletionStep, (projectId: string) => Promise<number>> = {
  webhooks: async (projectId) =>
    (await db.webhookDelivery.deleteMany({ where: { projectId } })).count +
    (await db.webhookEndpoint.deleteMany({ where: { projectId } })).count,
  conversations: async (projectId) => (await db.conversation.deleteMany({ where: { projectId } })).count,
  evaluations: async (projectId) =>
    (await db.evaluationRun.deleteMany({ where: { projectId } })).count +
    (await db.testSet.deleteMany({ where: { projectId } })).count,
  // A flow's revisions, node indexes and their chunk sets (its deployment) go with it.
  flows: async (projectId) =>
    (await db.flow.deleteMany({ where: { projectId } })).count +
    (await db.chunkSet.deleteMany({ where: { projectId } })).count,
  chunks: (projectId) =>
    inBatches(
      () =>
        db.$executeRaw`DELETE FROM chunks WHERE id IN (SELECT id FROM chunks WHERE project_id = ${projectId}::uuid LIMIT ${BATCH})`,
    ),
  elements: (projectId) =>
    inBatches(
      () =>
        db.$executeRaw`DELETE FROM elements WHERE id IN (SELECT id FROM elements WHERE project_id = ${projectId}::uuid LIMIT ${BATCH})`,
    ),
  // Builds go with their sources.
  sources: async (projectId) => (await db.source.deleteMany({ where: { projectId } })).count,
  // Every stored file of a project lives under its folder (server/storage/types.ts), whichever driver holds it.
  files: async (projectId) => {
    await fileStore().deletePrefix(projectFolder(projectId));
    return 0;
  },
  tokens: async (projectId) => (await db.apiToken.deleteMany({ where: { projectId } })).count,
  project: async (projectId) =>
    (await db.project.deleteMany({ where: { id: projectId, deletingAt: { not: null } } })).count,
};

export const projectFolder = (projectId: string) => `projects/${projectId}/`;

/**
 * Flags the project for deletion and starts the job. The name must be typed exactly (the dashboard's confirmation);
 * asking again while it runs changes nothing.
 */
export const requestProjectDeletion = async ({
  projectId,
  confirmName,
}: {
  projectId: string;
  confirmName: string;
}) => {
  const project = await getProject(projectId);
  if (confirmName !== project.name) {
    throw new AppError("BAD_REQUEST", "Type the project's name exactly to confirm the deletion");
  }
  await db.project.updateMany({
    where: { id: projectId, deletingAt: null },
    data: { deletingAt: new Date(), deletionStep: DELETION_STEPS[0], deletionRemoved: 0 },
  });
  await cancelActiveBuilds(projectId);
  await startDeletionJob(projectId);
  return deletionStatus(projectId);
};

/**
 * Marks the project's queued and running builds failed, with the reason, and their sources with them; their jobs
 * stop before their next step (unlessCancelled).
 */
const cancelActiveBuilds = async (projectId: string) => {
  const where = { projectId, status: { in: ["Pending", "Processing"] as ("Pending" | "Processing")[] } };
  const builds = await db.build.findMany({ where, select: { sourceId: true } });
  if (builds.length === 0) return;
  await db.$transaction([
    db.build.updateMany({
      where,
      data: { status: "ProcessingFailed", error: BUILD_CANCELLED_REASON, finishedAt: new Date() },
    }),
    db.source.updateMany({
      where: { projectId, id: { in: builds.map((b) => b.sourceId) } },
      data: { status: "Failed" },
    }),
  ]);
};

const deletionAttempt = async (projectId: string) =>
  (await db.project.findUnique({ where: { id: projectId }, select: { deletionAttempt: true } }))?.deletionAttempt ?? 0;

/** The job's event id: it names the attempt, so a re-send (a restart) starts nothing twice and a retry does. */
const deletionEventId = (projectId: string, attempt: number) =>
  attempt === 0 ? `project-delete-${projectId}` : `project-delete-${projectId}-retry-${attempt}`;

const startDeletionJob = async (projectId: string) => {
  const attempt = await deletionAttempt(projectId);
  await sendJobEvent(projectDeleteRequested, { projectId, attempt }, { id: deletionEventId(projectId, attempt) });
};

/**
 * What the job records when it failed for good (after its retries): the step it was on and the error. Only while
 * its attempt is the project's current one: a failure that arrives after an admin's retry started is not the new
 * attempt's.
 */
export const recordDeletionFailure = async (projectId: string, message: string, attempt = 0) => {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { deletionStep: true } });
  if (!project) return;
  const error = `Could not remove ${project.deletionStep ?? "the project"}: ${printable(message).slice(0, 500)}`;
  await db.project.updateMany({
    where: { id: projectId, deletingAt: { not: null }, deletionAttempt: attempt },
    data: { deletionError: error },
  });
};

/** Starts a failed deletion again, where it stopped (409 unless it failed). */
export const retryProjectDeletion = async (projectId: string) => {
  const { count } = await db.project.updateMany({
    where: { id: projectId, deletingAt: { not: null }, deletionError: { not: null } },
    data: { deletionError: null, deletionAttempt: { increment: 1 } },
  });
  if (count === 0) throw new AppError("CONFLICT", "Only a deletion that failed can be retried");
  await startDeletionJob(projectId);
  return deletionStatus(projectId);
};

/** Why a run ended without its failure recorded: the executor stopped between the two. */
export const UNRECORDED_FAILURE = "the deletion stopped when Quarry restarted";

/**
 * Deletions a crash may have left without a job (flagged, but the event never reached the executor); re-sent on
 * start with the attempt's id, so a deletion whose run exists is not started twice. Failed ones wait for a retry.
 * With the local executor, a run that failed for good before its failure was recorded (a crash between the two:
 * the re-sent event would start nothing) is recorded as failed here, so the deletion waits for a retry instead of
 * showing "Deleting…" forever. (An Inngest server runs the onFailure handler itself.)
 */
export const resumeProjectDeletions = async () => {
  const projects = await db.project.findMany({
    where: { deletingAt: { not: null }, deletionError: null },
    select: { id: true },
  });
  for (const { id } of projects) {
    const attempt = await deletionAttempt(id);
    const runs = jobRunner() === "local" ? await runsOfEvent(db, deletionEventId(id, attempt)) : [];
    const failed = runs.find((run) => run.status === "failed");
    if (failed) await recordDeletionFailure(id, failed.error || UNRECORDED_FAILURE, attempt);
    else await startDeletionJob(id);
  }
  return projects.length;
};

/** Runs one step and records the next as the project's progress (a step already done removes nothing again). */
export const runDeletionStep = async (projectId: string, step: DeletionStep) => {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { deletingAt: true } });
  if (!project) return { removed: 0 };
  if (!project.deletingAt) throw new AppError("CONFLICT", "This project was not asked to be deleted");
  const removed = await removers[step](projectId);
  const next = DELETION_STEPS[DELETION_STEPS.indexOf(step) + 1];
  if (next) {
    await db.project.updateMany({
      where: { id: projectId },
      data: { deletionStep: next, deletionRemoved: { increment: removed } },
    });
  }
  return { removed };
};

/** The progress the dashboard shows: null once the project is gone (or was never being deleted). */
export const deletionStatus = async (projectId: string) => {
  const project = await db.project.findUnique({
    where: { id: projectId },
    select: { deletingAt: true, deletionStep: true, deletionRemoved: true, deletionError: true },
  });
  if (!project?.deletingAt) return null;
  const step = (project.deletionStep ?? DELETION_STEPS[0]) as DeletionStep;
  return {
    step,
    done: Math.max(0, DELETION_STEPS.indexOf(step)),
    total: DELETION_STEPS.length,
    removed: project.deletionRemoved,
    startedAt: project.deletingAt,
    /** Set when the job failed for good: the deletion stopped and waits for a retry. */
    error: project.deletionError,
  };
};
