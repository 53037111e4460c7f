import { z } from "zod";
import { SetProjectModelsInput } from "@/server/model-providers/project-models.schema";
import { getProjectModels, setProjectModels } from "@/server/model-providers/project-models";
import { projectProcedure, router } from "../../init";

const ProjectInput = z.object({ projectId: z.uuid() });

/**
 * A project's default models per role. Anyone in the project reads them (the flow editor's pickers show what
 * "Default" resolves to, and which models are served, by name only); admins set them.
 */
export const projectModelsRouter = router({
  get: projectProcedure("viewer")
    .input(ProjectInput)
    .query(({ ctx }) => getProjectModels(ctx.projectId)),

  set: projectProcedure("admin")
    .input(ProjectInput.extend(SetProjectModelsInput.shape))
    .mutation(({ ctx, input }) => {
      const { chat, embedding, rerank, vision, speech } = input;
      return setProjectModels(ctx.projectId, { chat, embedding, rerank, vision, speech });
    }),
});
