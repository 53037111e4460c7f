import { z } from "zod";
import { ALL_PERMISSIONS, createApiToken, listApiTokens, revokeApiTokenById } from "@/server/auth/api-tokens";
import { AppError } from "@/server/errors";
import { CreateTokenInput } from "@/server/auth/api-tokens.schema";
import { projectProcedure, router } from "../../init";

const ProjectInput = z.object({ projectId: z.uuid() });

/** The API tokens page. Admins only: a token acts for the whole project without a person behind it. */
export const tokensRouter = router({
  list: projectProcedure("admin")
    .input(ProjectInput)
    .query(({ ctx }) => listApiTokens(ctx.projectId)),

  /** The token itself is in this response only; the database keeps its hash. */
  create: projectProcedure("admin")
    .input(ProjectInput.extend(CreateTokenInput.shape))
    .mutation(async ({ ctx, input }) => {
      const permissions = ALL_PERMISSIONS.filter((p) => input.permissions.includes(p));
      const { token, record } = await createApiToken({
        projectId: ctx.projectId,
        name: input.name,
        permissions,
        createdById: ctx.userId,
      });
      return { token, id: record.id, name: record.name, permissions: record.permissions };
    }),

  revoke: projectProcedure("admin")
    .input(ProjectInput.extend({ tokenId: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      if (!(await revokeApiTokenById({ projectId: ctx.projectId, tokenId: input.tokenId }))) {
        throw new AppError("NOT_FOUND", "Token not found or already revoked");
      }
    }),
});
