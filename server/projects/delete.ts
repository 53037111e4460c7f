import { db } from "../db";
import { AppError } from "../errors";
import { projectDeleteRequested } from "../jobs/events";
import { sendJobEvent } from "../jobs/send";
import { fileStore } from "../storage";
import { getProject } from "./service";

/**
 * Deleting a project: an admin types its name, the project is flagged (`deletingAt`: its API tokens and dashboard
 * changes are refused from then on, server/trpc/init.ts), and a job (inngest/functions/delete-project.ts) removes its
 * data one step at a time, recording progress on the row. Every step deletes by project id only and is idempotent, so
 * a run that crashed resumes at the step that was running. The project row goes last; the foreign keys' cascades take
 * whatever a step did not name (usage records, graph rows, prompts).
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
  await sendJobEvent(projectDeleteRequested, { projectId }, { id: `project-delete-${projectId}` });
  return deletionStatus(projectId);
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
    select: { deletingAt: true, deletionStep: true, deletionRemoved: true },
  });
  if (!project?.deletingAt) return null;
  const step = (project.deletionStep ?? DELETION_STEPS[0]) as DeletionStep;
  return {
    step,
    done: Math.max(0, DELETION_STEPS.indexOf(step)),
    total: DELETION_STEPS.length,
    removed: project.deletionRemoved,
    startedAt: project.deletingAt,
  };
};
