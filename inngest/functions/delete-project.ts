import { inngest } from "@/server/jobs/client";
import { projectDeleteRequested } from "@/server/jobs/events";
import { DELETION_STEPS, recordDeletionFailure, runDeletionStep } from "@/server/projects/delete";

/**
 * Deletes a project flagged by server/projects/delete.ts: one step per kind of data (webhooks, conversations,
 * evaluations, flows with their deployments, chunks, elements, sources with their builds, stored files, tokens,
 * then the row), each recording progress on the project. Steps are idempotent and memoized, so a crash resumes at
 * the step that was running. Step ids are stable: the names in DELETION_STEPS. A run that fails for good records
 * why on the project (onFailure), where the settings page offers to retry it.
 */
export const deleteProject = inngest.createFunction(
  {
    id: "delete-project",
    name: "Delete project",
    retries: 5,
    triggers: [projectDeleteRequested],
    onFailure: ({ event, error }) => {
      const { projectId, attempt } = event.data.event.data;
      return recordDeletionFailure(projectId, error.message, attempt);
    },
  },
  async ({ event, step }) => {
    const { projectId } = event.data;
    let removed = 0;
    for (const name of DELETION_STEPS) {
      removed += (await step.run(name, () => runDeletionStep(projectId, name))).removed;
    }
    return { projectId, removed };
  },
);
