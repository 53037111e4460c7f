import { z } from "zod";
import { acceptInvitation, previewInvitation } from "@/server/teams/invitations";
import { createTeam, teamsOfUser } from "@/server/teams/service";
import { CreateTeamInput } from "@/server/teams/teams.schema";
import { authedProcedure, publicProcedure, router } from "../../init";

/** The signed-in user: who they are, their teams and projects (the switcher), new teams, invitations. */
export const accountRouter = router({
  me: authedProcedure.query(async ({ ctx }) => ({
    userId: ctx.userId,
    email: ctx.auth.email,
    teams: await teamsOfUser(ctx.userId),
  })),

  /** Any signed-in user may start a team of their own, of which they are the owner. */
  createTeam: authedProcedure
    .input(CreateTeamInput)
    .mutation(({ ctx, input }) => createTeam({ userId: ctx.userId, name: input.name })),

  /** What an invitation link offers (team name and role), shown before sign-in. */
  previewInvitation: publicProcedure
    .input(z.object({ token: z.string().min(1).max(100) }))
    .query(({ input }) => previewInvitation(input.token)),

  acceptInvitation: authedProcedure
    .input(z.object({ token: z.string().min(1).max(100) }))
    .mutation(({ ctx, input }) => acceptInvitation({ token: input.token, userId: ctx.userId, email: ctx.auth.email })),
});
