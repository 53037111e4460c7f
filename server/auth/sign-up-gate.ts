import { db } from "../db";
import { logger } from "../logger";
import { acceptInvitation, usableInvitation } from "../teams/invitations";
import { claimFirstOwnership } from "../teams/service";

/**
 * Who may create an account. Quarry has no open sign-up: an account is made either by the install's first owner
 * (headless from QUARRY_ADMIN_EMAIL/QUARRY_ADMIN_PASSWORD, or the setup page on a fresh install), or by someone
 * holding a valid invitation link. This one gate applies to every way in (email + password and OAuth/OIDC), because
 * Better Auth calls it before it creates any user.
 */

export const INVITE_HEADER = "x-quarry-invite";
/** Set by the invitation page, so an OAuth round trip (which cannot carry a header) still presents the invitation. */
export const INVITE_COOKIE = "quarry_invite";

type EndpointContext = { headers?: Headers; request?: Request } | null | undefined;

const cookieValue = (cookieHeader: string | null | undefined, name: string) => {
  for (const part of cookieHeader?.split(";") ?? []) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      return undefined; // a malformed escape (`%FF`) is no invitation, not a server error
    }
  }
  return undefined;
};

export const inviteTokenOf = (ctx: EndpointContext): string | undefined => {
  const headers = ctx?.headers ?? ctx?.request?.headers;
  return headers?.get(INVITE_HEADER) ?? cookieValue(headers?.get("cookie"), INVITE_COOKIE) ?? undefined;
};

export const hasAnyUser = async () => (await db.user.count()) > 0;

const INVITATION_REQUIRED = {
  error: "invitation_required",
  errorDescription: "Accounts are created through an invitation link from a team admin",
} as const;

/** The refusal for someone without a usable invitation once the install has its owner; null when admitted so far. */
const withoutInvitation = async (ctx: EndpointContext) => {
  if (!(await hasAnyUser())) return { refusal: null, invitation: null }; // the first account of the install: its owner
  const token = inviteTokenOf(ctx);
  const invitation = token ? await usableInvitation(token) : null;
  return { refusal: invitation ? null : INVITATION_REQUIRED, invitation };
};

/**
 * Better Auth's `hooks.before` for `/sign-up/email`: refuses a sign-up without an invitation before Better Auth
 * looks the email up, so an existing account's email and an unknown one get the same 403, in the same time (neither
 * reaches the lookup nor the password hash). Without it the existing email answered 422 `User already exists`.
 */
export const invitationRefusal = async (ctx: EndpointContext) => (await withoutInvitation(ctx)).refusal;

/** Better Auth's `user.validateUserInfo`: runs before a user row is created (every way in, OAuth/OIDC included). */
export const admitNewUser = async (
  { user, source }: { user: { email?: string | null }; source: { action: string } },
  ctx: EndpointContext,
) => {
  if (source.action !== "create-user") return;
  const { refusal, invitation } = await withoutInvitation(ctx);
  if (refusal) return refusal;
  if (!invitation) return;
  if (invitation.email && invitation.email !== user.email?.toLowerCase()) {
    return { error: "invitation_email_mismatch", errorDescription: `This invitation is for ${invitation.email}` };
  }
};

/** Better Auth's `databaseHooks.user.create.after`: the new user joins the invited team, or owns a fresh install. */
export const onUserCreated = async (user: { id: string; email: string }, ctx: EndpointContext) => {
  const token = inviteTokenOf(ctx);
  if (token && (await usableInvitation(token))) {
    await acceptInvitation({ token, userId: user.id, email: user.email });
    return;
  }
  if (await claimFirstOwnership(user.id)) logger.info({ userId: user.id }, "first owner created");
};
