import { randomBytes } from "node:crypto";
import { db } from "../db";
import { AppError } from "../errors";
import { membershipOf } from "../teams/service";
import { roleAtLeast, type TeamRole } from "../teams/teams.schema";
import { getAuth } from "./auth";
import { resetPasswordPath } from "./reset-mail";

/**
 * Password resets without mail: a team owner or admin issues a one-time link for a member and hands it over
 * themselves. The link is a Better Auth reset token (the same `reset-password:<token>` verification row "forgot
 * password" makes), so one page and one endpoint (`POST /api/auth/reset-password`) serve both, and using it consumes
 * it and signs the account out everywhere.
 */

/** Longer than a mailed link's hour: the admin passes it on by hand. */
export const ISSUED_RESET_HOURS = 24;

const IDENTIFIER_PREFIX = "reset-password:";

/**
 * Who may issue whose link. The link sets the password of the whole account, not of one team's membership, so:
 * only a member of the actor's team; an owner's link only by an owner; and never for someone who owns or administers
 * another team (an admin here must not be able to take over a team elsewhere) — they use "Forgot password".
 */
const assertMayIssue = async ({ teamId, actorRole, targetUserId }: IssueArgs) => {
  const target = await membershipOf({ userId: targetUserId, teamId });
  if (!target) throw new AppError("NOT_FOUND", "Member not found");
  if (target.role === "owner" && !roleAtLeast(actorRole, "owner")) {
    throw new AppError("FORBIDDEN", "Only an owner can issue a reset link for an owner");
  }
  const elsewhere = await db.teamMember.count({
    where: { userId: targetUserId, teamId: { not: teamId }, role: { in: ["admin", "owner"] } },
  });
  if (elsewhere > 0) {
    throw new AppError(
      "FORBIDDEN",
      "This member also manages another team; they can reset their password with 'Forgot password' on the sign-in page",
    );
  }
};

type IssueArgs = { teamId: string; actorRole: TeamRole; targetUserId: string };

/**
 * A one-time reset link's path for a member, valid ISSUED_RESET_HOURS, returned once. Better Auth keeps only a hash
 * of its token in the verification table, as it does a mailed link's (`verification.storeIdentifier` in auth.ts).
 */
export const issueResetLink = async (args: IssueArgs) => {
  await assertMayIssue(args);
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + ISSUED_RESET_HOURS * 3600_000);
  const context = await (await getAuth()).$context;
  await context.internalAdapter.createVerificationValue({
    identifier: `${IDENTIFIER_PREFIX}${token}`,
    value: args.targetUserId,
    expiresAt,
  });
  return { path: resetPasswordPath(token), expiresAt };
};

/** Whether a reset token can still be used (exists, unused, unexpired), for the page to say so before the form. */
export const resetTokenUsable = async (token: string): Promise<boolean> => {
  if (!/^[A-Za-z0-9_-]{8,100}$/.test(token)) return false;
  const context = await (await getAuth()).$context;
  const row = await context.internalAdapter.findVerificationValue(`${IDENTIFIER_PREFIX}${token}`);
  return Boolean(row && row.expiresAt > new Date());
};
