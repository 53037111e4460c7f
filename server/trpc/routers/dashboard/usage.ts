import { z } from "zod";
import { AppError } from "@/server/errors";
import { projectUsage, removeModelPrice, setModelPrice } from "@/server/usage/service";
import { ModelPriceInput, UsageRangeInput } from "@/server/usage/usage.schema";
import { projectProcedure, router } from "../../init";

const ProjectInput = z.object({ projectId: z.uuid() });

/**
 * The usage page: members read the project's model calls; admins enter the team's prices per million tokens (one
 * price list per team, shared by its projects).
 */
export const usageRouter = router({
  summary: projectProcedure("member")
    .input(ProjectInput.extend(UsageRangeInput.shape))
    .query(({ ctx, input }) => projectUsage({ projectId: ctx.projectId, teamId: ctx.teamId, days: input.days })),

  setPrice: projectProcedure("admin")
    .input(ProjectInput.extend(ModelPriceInput.shape))
    .mutation(({ ctx, input }) => setModelPrice(ctx.teamId, input)),

  removePrice: projectProcedure("admin")
    .input(ProjectInput.extend({ model: ModelPriceInput.shape.model }))
    .mutation(async ({ ctx, input }) => {
      if (!(await removeModelPrice(ctx.teamId, input.model)))
        throw new AppError("NOT_FOUND", "No price for that model");
    }),
});
