import { z } from "zod";
import { issueResetLink } from "@/server/auth/password-reset";
import { env } from "@/server/env";
import { sendInvitationMail } from "@/server/teams/invitation-mail";
import { createInvitation, invitationPath, listInvitations, revokeInvitation } from "@/server/teams/invitations";
import { changeMemberRole, listMembers, removeMember, renameTeam } from "@/server/teams/service";
import { CreateInvitationInput, TEAM_ROLES, TeamName } from "@/server/teams/teams.schema";
import { router, teamProcedure } from "../../init";

const TeamInput = z.object({ teamId: z.uuid() });

/** Members, roles and invitations of one team. Admins manage members; owners manage the team itself. */
export const teamsRouter = router({
  members: teamProcedure("viewer")
    .input(TeamInput)
    .query(async ({ ctx, input }) => ({ role: ctx.role, members: await listMembers(input.teamId) })),

  rename: teamProcedure("owner")
    .input(TeamInput.extend({ name: TeamName }))
    .mutation(({ input }) => renameTeam({ teamId: input.teamId, name: input.name })),

  changeRole: teamProcedure("admin")
    .input(TeamInput.extend({ userId: z.uuid(), role: z.enum(TEAM_ROLES) }))
    .mutation(async ({ ctx, input }) => {
      await changeMemberRole({
        teamId: input.teamId,
        actorRole: ctx.role,
        targetUserId: input.userId,
        role: input.role,
      });
    }),

  removeMember: teamProcedure("admin")
    .input(TeamInput.extend({ userId: z.uuid() }))
    .mutation(({ ctx, input }) =>
      removeMember({ teamId: input.teamId, actorRole: ctx.role, targetUserId: input.userId }),
    ),

  /** A one-time password reset link for a member, returned once for the admin to hand over (no mail needed). */
  issueResetLink: teamProcedure("admin")
    .input(TeamInput.extend({ userId: z.uuid() }))
    .mutation(({ ctx, input }) =>
      issueResetLink({ teamId: input.teamId, actorRole: ctx.role, targetUserId: input.userId }),
    ),

  invitations: teamProcedure("admin")
    .input(TeamInput)
    .query(({ input }) => listInvitations(input.teamId)),

  /** The link is returned once (its secret is stored hashed); with SMTP configured it is also mailed. */
  invite: teamProcedure("admin")
    .input(TeamInput.extend(CreateInvitationInput.shape))
    .mutation(async ({ ctx, input }) => {
      const { token, invitation } = await createInvitation({
        teamId: input.teamId,
        role: input.role,
        email: input.email,
        expiresInDays: input.expiresInDays,
        actorRole: ctx.role,
        createdById: ctx.userId,
      });
      const mailed =
        input.email && env.SMTP_URL
          ? await sendInvitationMail({ invitationId: invitation.id, to: input.email, path: invitationPath(token) })
          : false;
      return { invitation, path: invitationPath(token), mailed };
    }),

  revokeInvitation: teamProcedure("admin")
    .input(TeamInput.extend({ invitationId: z.uuid() }))
    .mutation(({ input }) => revokeInvitation({ teamId: input.teamId, invitationId: input.invitationId })),
});
