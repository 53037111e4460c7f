import { z } from "zod";
import { createProject, renameProject } from "@/server/projects/service";
import { unavailableFeatures } from "@/server/parsing/tool-features";
import { deletionStatus, requestProjectDeletion, retryProjectDeletion } from "@/server/projects/delete";
import { DeleteProjectInput, ProjectName } from "@/server/projects/projects.schema";
import { indexingOptions } from "@/server/ingestion/build-options";
import { projectProcedure, router, teamProcedure } from "../../init";

export const projectsRouter = router({
  /** Admins decide which projects a team has. */
  create: teamProcedure("admin")
    .input(z.object({ teamId: z.uuid(), name: ProjectName }))
    .mutation(({ input }) => createProject({ teamId: input.teamId, name: input.name })),

  /** Admins rename a project (API tokens and flows keep working: they hold its id, not its name). */
  rename: projectProcedure("admin")
    .input(z.object({ projectId: z.uuid(), name: ProjectName }))
    .mutation(async ({ ctx, input }) => {
      const project = await renameProject({ projectId: ctx.projectId, name: input.name });
      return { id: project.id, name: project.name };
    }),

  /**
   * Admins delete a project, after typing its name: a job removes every source, flow, token, webhook, conversation,
   * evaluation and stored file; from now on the project's tokens and changes are refused (409).
   */
  delete: projectProcedure("admin")
    .input(DeleteProjectInput)
    .mutation(({ ctx, input }) => requestProjectDeletion({ projectId: ctx.projectId, confirmName: input.confirmName })),

  /** Admins restart a deletion whose job failed for good, where it stopped (409 unless it failed). */
  retryDeletion: projectProcedure("admin", { whileDeleting: true })
    .input(z.object({ projectId: z.uuid() }))
    .mutation(({ ctx }) => retryProjectDeletion(ctx.projectId)),

  /** The deletion's progress (null when the project is not being deleted; not found once it is gone). */
  deletion: projectProcedure("admin")
    .input(z.object({ projectId: z.uuid() }))
    .query(({ ctx }) => deletionStatus(ctx.projectId)),

  /** The project, the caller's role in it (the UI hides what the role cannot do), and this deployment's options. */
  get: projectProcedure("viewer")
    .input(z.object({ projectId: z.uuid() }))
    .query(async ({ ctx }) => ({
      project: { id: ctx.project.id, name: ctx.project.name, teamId: ctx.teamId, deleting: !!ctx.project.deletingAt },
      role: ctx.role,
      indexingOptions: indexingOptions(),
      unavailableFeatures: await unavailableFeatures(),
    })),
});
