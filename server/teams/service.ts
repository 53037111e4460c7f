import { db } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { roleAtLeast, type TeamRole } from "./teams.schema";

/** The team that owns projects made outside the dashboard (first start, QUARRY_INIT_TOKEN, the CLI). */
export const defaultTeam = async () => {
  const found = await db.team.findFirst({ where: { isDefault: true }, orderBy: { createdAt: "asc" } });
  // The migration creates it; a database restored without it gets a new one rather than an error.
  return found ?? db.team.create({ data: { name: "Default team", isDefault: true } });
};

export const membershipOf = async ({ userId, teamId }: { userId: string; teamId: string }) =>
  isUuid(teamId) ? db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } } }) : null;

/**
 * A user's access to a project: the project and the user's role in the team that owns it, or null when the project
 * does not exist or the user is not a member (both look the same to the caller: not found).
 */
export const projectAccess = async ({ userId, projectId }: { userId: string; projectId: string }) => {
  if (!isUuid(projectId)) return null;
  const project = await db.project.findUnique({
    where: { id: projectId },
    include: { team: { include: { members: { where: { userId } } } } },
  });
  const member = project?.team.members[0];
  if (!project || !member) return null;
  const { team, ...rest } = project;
  return { project: rest, team: { id: team.id, name: team.name }, role: member.role as TeamRole };
};

/** Teams the user belongs to, with the user's role and the team's projects. */
export const teamsOfUser = async (userId: string) => {
  const memberships = await db.teamMember.findMany({
    where: { userId },
    include: { team: { include: { projects: { orderBy: { createdAt: "asc" } } } } },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({
    id: m.team.id,
    name: m.team.name,
    role: m.role as TeamRole,
    projects: m.team.projects.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt,
      // Being deleted: listed with a "Deleting…" (or "Deletion failed") label, not opened like the others.
      deleting: p.deletingAt !== null,
      deletionFailed: p.deletingAt !== null && p.deletionError !== null,
    })),
  }));
};

export const createTeam = async ({ userId, name }: { userId: string; name: string }) =>
  db.team.create({ data: { name, members: { create: { userId, role: "owner" } } } });

export const renameTeam = ({ teamId, name }: { teamId: string; name: string }) =>
  db.team.update({ where: { id: teamId }, data: { name } });

export const listMembers = async (teamId: string) => {
  const members = await db.teamMember.findMany({
    where: { teamId },
    include: { user: { select: { id: true, name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  return members.map((m) => ({ ...m.user, role: m.role as TeamRole, joinedAt: m.createdAt }));
};

/**
 * Role changes and removals, with the rules that keep a team governable: only owners touch owners or make new
 * ones, and the last owner can neither leave nor be demoted.
 */
const assertMayManage = async ({
  teamId,
  actorRole,
  targetUserId,
  newRole,
}: {
  teamId: string;
  actorRole: TeamRole;
  targetUserId: string;
  newRole: TeamRole | null;
}) => {
  const target = await membershipOf({ userId: targetUserId, teamId });
  if (!target) throw new AppError("NOT_FOUND", "Member not found");
  const touchesOwner = target.role === "owner" || newRole === "owner";
  if (touchesOwner && !roleAtLeast(actorRole, "owner")) {
    throw new AppError("FORBIDDEN", "Only an owner can appoint, demote or remove owners");
  }
  if (target.role === "owner" && newRole !== "owner") {
    const owners = await db.teamMember.count({ where: { teamId, role: "owner" } });
    if (owners <= 1) throw new AppError("CONFLICT", "A team needs at least one owner; appoint another owner first");
  }
  return target;
};

export const changeMemberRole = async (args: {
  teamId: string;
  actorRole: TeamRole;
  targetUserId: string;
  role: TeamRole;
}) => {
  await assertMayManage({ ...args, newRole: args.role });
  return db.teamMember.update({
    where: { teamId_userId: { teamId: args.teamId, userId: args.targetUserId } },
    data: { role: args.role },
  });
};

export const removeMember = async (args: { teamId: string; actorRole: TeamRole; targetUserId: string }) => {
  await assertMayManage({ ...args, newRole: null });
  await db.teamMember.delete({ where: { teamId_userId: { teamId: args.teamId, userId: args.targetUserId } } });
};

/**
 * The first account of an install owns the default team (and so every project made before accounts existed). Runs
 * in one transaction so two sign-ups racing on a fresh install cannot both become owner.
 */
export const claimFirstOwnership = async (userId: string): Promise<boolean> => {
  const team = await defaultTeam();
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM teams WHERE id = ${team.id}::uuid FOR UPDATE`;
    if ((await tx.teamMember.count({ where: { role: "owner" } })) > 0) return false;
    await tx.teamMember.create({ data: { teamId: team.id, userId, role: "owner" } });
    return true;
  });
};
