import { createHash, randomBytes } from "node:crypto";
import { db } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { roleAtLeast, roleRank, type TeamRole } from "./teams.schema";

/**
 * Invitations by link: the link carries a random secret, the database keeps only its sha256, and whoever opens the
 * link may create an account (or use theirs) and join the team with the invitation's role. No mail server is needed;
 * with SMTP configured the link is also mailed.
 */

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export const invitationPath = (token: string) => `/invite/${token}`;

export const createInvitation = async ({
  teamId,
  role,
  email,
  expiresInDays,
  actorRole,
  createdById,
}: {
  teamId: string;
  role: TeamRole;
  email?: string;
  expiresInDays: number;
  actorRole: TeamRole;
  createdById: string;
}) => {
  if (role === "owner" && !roleAtLeast(actorRole, "owner")) {
    throw new AppError("FORBIDDEN", "Only an owner can invite owners");
  }
  const token = randomBytes(24).toString("base64url");
  const invitation = await db.teamInvitation.create({
    data: {
      teamId,
      role,
      email: email?.toLowerCase() ?? null,
      hashedToken: hash(token),
      createdById,
      expiresAt: new Date(Date.now() + expiresInDays * 24 * 60 * 60 * 1000),
    },
    omit: { hashedToken: true },
  });
  return { token, invitation };
};

export const listInvitations = (teamId: string) =>
  db.teamInvitation.findMany({
    where: { teamId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    omit: { hashedToken: true },
    orderBy: { createdAt: "desc" },
  });

export const revokeInvitation = async ({ teamId, invitationId }: { teamId: string; invitationId: string }) => {
  if (!isUuid(invitationId)) throw new AppError("NOT_FOUND", "Invitation not found");
  const { count } = await db.teamInvitation.updateMany({
    where: { id: invitationId, teamId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new AppError("NOT_FOUND", "Invitation not found");
};

/** The invitation behind a link while it can still be accepted, else null. */
export const usableInvitation = async (token: string) => {
  if (!token || token.length > 100) return null;
  const invitation = await db.teamInvitation.findUnique({
    where: { hashedToken: hash(token) },
    include: { team: { select: { id: true, name: true } } },
    omit: { hashedToken: true },
  });
  if (!invitation || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= new Date()) return null;
  return invitation;
};

/** What the invitation page shows before anyone signs in: the team's name and the role, nothing else. */
export const previewInvitation = async (token: string) => {
  const invitation = await usableInvitation(token);
  if (!invitation) return null;
  return { teamName: invitation.team.name, role: invitation.role as TeamRole, email: invitation.email };
};

/**
 * Joins the user to the invitation's team. A member who already has a stronger role keeps it. The invitation is
 * used up in the same transaction, so one link admits one person.
 */
export const acceptInvitation = async ({ token, userId, email }: { token: string; userId: string; email: string }) => {
  const invitation = await usableInvitation(token);
  if (!invitation) throw new AppError("NOT_FOUND", "This invitation is no longer valid");
  if (invitation.email && invitation.email !== email.toLowerCase()) {
    throw new AppError("FORBIDDEN", `This invitation is for ${invitation.email}`);
  }
  await db.$transaction(async (tx) => {
    const { count } = await tx.teamInvitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null },
      data: { acceptedAt: new Date(), acceptedById: userId },
    });
    if (count === 0) throw new AppError("CONFLICT", "This invitation was just used");
    const current = await tx.teamMember.findUnique({
      where: { teamId_userId: { teamId: invitation.teamId, userId } },
    });
    const role = invitation.role as TeamRole;
    if (!current) {
      await tx.teamMember.create({ data: { teamId: invitation.teamId, userId, role } });
    } else if (roleRank(role) > roleRank(current.role as TeamRole)) {
      await tx.teamMember.update({
        where: { teamId_userId: { teamId: invitation.teamId, userId } },
        data: { role },
      });
    }
  });
  return { teamId: invitation.teamId, teamName: invitation.team.name };
};
