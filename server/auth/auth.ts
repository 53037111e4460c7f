import { betterAuth, type BetterAuthOptions } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { db } from "../db";
import { env } from "../env";
import { hasNul, NUL_DETAIL } from "../input-guard";
import { logger } from "../logger";
import { resetRequestAllowed, TOO_MANY_RESETS } from "./reset-limits";
import { MAILED_RESET_SECONDS, mailResetLink } from "./reset-mail";
import { authSecret } from "./secret";
import { admitNewUser, invitationRefusal, onUserCreated } from "./sign-up-gate";

/**
 * Sign-in for the dashboard: Better Auth with its Prisma adapter, sessions in Postgres (`sessions`), email + password,
 * and optional OAuth/OIDC providers configured by env. Who may create an account at all is decided in one gate
 * (`sign-up-gate.ts`); what a signed-in user may do is decided by the tRPC ladder (`server/trpc/init.ts`).
 */

/** Set by the launcher (scripts/start.ts) from the connection itself, never taken from the client. */
export const CLIENT_IP_HEADER = "x-quarry-client-ip";

/** OAuth providers with their settings present, for the sign-in page's buttons. */
export const configuredProviders = (): { id: string; name: string }[] => [
  ...(env.OIDC_DISCOVERY_URL && env.OIDC_CLIENT_ID ? [{ id: "oidc", name: env.OIDC_PROVIDER_NAME }] : []),
  ...(env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET ? [{ id: "github", name: "GitHub" }] : []),
  ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? [{ id: "google", name: "Google" }] : []),
];

/** https when QUARRY_PUBLIC_URL says so: cookies then carry Secure (and the __Secure- prefix). */
export const secureCookies = () => env.QUARRY_PUBLIC_URL?.startsWith("https://") ?? false;

/**
 * Email and password, with resets: "Forgot password" mails a one-time link (reset-mail.ts); an admin can issue one
 * without mail (password-reset.ts). Either way a new password signs the account out everywhere.
 */
const emailAndPassword = {
  enabled: true,
  minPasswordLength: 8,
  maxPasswordLength: 128,
  autoSignIn: true,
  sendResetPassword: mailResetLink,
  resetPasswordTokenExpiresIn: MAILED_RESET_SECONDS,
  revokeSessionsOnPasswordReset: true,
} satisfies BetterAuthOptions["emailAndPassword"];

/**
 * Every endpoint's parsed JSON and query, before it runs: the same U+0000 rule as all other input (input-guard.ts),
 * answered in Better Auth's own error shape instead of a database failure. Then "forgot password" over its hourly
 * limits (reset-limits.ts) is refused, and a sign-up by email without an invitation: both before the email is looked
 * up, so an existing account and an unknown email answer alike.
 */
const beforeEndpoints = createAuthMiddleware(async (ctx) => {
  if (hasNul(ctx.body) || hasNul(ctx.query)) throw new APIError("BAD_REQUEST", { message: NUL_DETAIL });
  if (ctx.path === "/request-password-reset") {
    const clientIp = (ctx.request?.headers ?? ctx.headers)?.get(CLIENT_IP_HEADER);
    if (!(await resetRequestAllowed(ctx.body, clientIp))) {
      throw new APIError("TOO_MANY_REQUESTS", { message: TOO_MANY_RESETS });
    }
    return;
  }
  if (ctx.path !== "/sign-up/email") return;
  const refusal = await invitationRefusal(ctx);
  if (refusal) throw new APIError("FORBIDDEN", { code: refusal.error, message: refusal.errorDescription });
});

const buildOptions = (secret: string) =>
  ({
    appName: "Quarry",
    secret,
    // Without a public URL, each request's own address is used (the server may be reached under any name): Better
    // Auth then trusts only that origin for its CSRF check, which a cross-site page cannot match. (A wildcard
    // allowedHosts list would make every origin trusted.)
    baseURL: env.QUARRY_PUBLIC_URL,
    // The same rule as the dashboard's own routes (origin.ts): a page of the host the request was sent to.
    trustedOrigins: (request?: Request) => {
      const host = request?.headers.get("host");
      return host ? [`http://${host}`, `https://${host}`] : [];
    },
    basePath: "/api/auth",
    database: prismaAdapter(db, { provider: "postgresql" }),
    // One-time values (reset tokens, OAuth state) are kept as SHA-256 hashes of their identifier, so a database
    // reader cannot use them. A value stored in clear by an older version is still found (Better Auth falls back to
    // the plain identifier) until it expires: at most a day for a reset link; the periodic cleanup removes it then.
    verification: { storeIdentifier: "hashed" },
    emailAndPassword,
    socialProviders: {
      ...(env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
        ? { github: { clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET } }
        : {}),
      ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { google: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } }
        : {}),
    },
    plugins:
      env.OIDC_DISCOVERY_URL && env.OIDC_CLIENT_ID
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "oidc",
                  name: env.OIDC_PROVIDER_NAME,
                  discoveryUrl: env.OIDC_DISCOVERY_URL,
                  clientId: env.OIDC_CLIENT_ID,
                  clientSecret: env.OIDC_CLIENT_SECRET,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                },
              ],
            }),
          ]
        : [],
    hooks: { before: beforeEndpoints },
    user: { validateUserInfo: admitNewUser },
    databaseHooks: { user: { create: { after: onUserCreated } } },
    session: {
      expiresIn: env.QUARRY_SESSION_DAYS * 24 * 60 * 60,
      // The session row's expiry moves forward at most once a day while the user is active.
      updateAge: 24 * 60 * 60,
    },
    account: {
      // A provider's account joins a local one with the same email only when that local email is verified (Better
      // Auth's default); Quarry verifies no emails, so a password account is never handed to a provider identity.
      accountLinking: { enabled: true, trustedProviders: ["github", "google", "oidc"] },
    },
    // Password guessing is slowed per client address: the launcher puts the socket's address in a header of its own
    // (any client-sent copy is overwritten), so a client can neither dodge the limit nor lock others out. These
    // per-minute counts are in memory (per replica); "forgot password" also has hourly ones in the database (above).
    rateLimit: {
      enabled: true,
      window: 60,
      max: 300,
      customRules: {
        "/sign-in/*": { window: 60, max: env.QUARRY_AUTH_ATTEMPTS_PER_MINUTE },
        "/sign-up/*": { window: 60, max: env.QUARRY_AUTH_ATTEMPTS_PER_MINUTE },
        "/request-password-reset": { window: 60, max: env.QUARRY_AUTH_ATTEMPTS_PER_MINUTE },
        "/reset-password": { window: 60, max: env.QUARRY_AUTH_ATTEMPTS_PER_MINUTE },
        // It checks the current password, so it is counted like a sign-in (Better Auth's own rule was 3 per 10 s).
        "/change-password": { window: 60, max: env.QUARRY_AUTH_ATTEMPTS_PER_MINUTE },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // Explicit: Better Auth turns its Origin checks off by itself when it thinks it runs under a test runner.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      database: { generateId: "uuid" },
      useSecureCookies: secureCookies(),
      cookiePrefix: "quarry",
      // HttpOnly and SameSite=Lax are Better Auth's defaults; stated here so a reader sees them.
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
    },
    logger: {
      log: (level, message, ...args) => {
        const method = level === "error" ? "error" : level === "warn" ? "warn" : "debug";
        logger[method]({ args }, `auth: ${message}`);
      },
    },
    telemetry: { enabled: false },
  }) satisfies BetterAuthOptions;

const create = async () => betterAuth(buildOptions(await authSecret()));

export type Auth = Awaited<ReturnType<typeof create>>;

const globalForAuth = globalThis as unknown as { quarryAuth?: Promise<Auth> };

/** The Better Auth instance, built once the signing secret is known (it may live in the database). */
export const getAuth = (): Promise<Auth> => {
  globalForAuth.quarryAuth ??= create().catch((error: unknown) => {
    globalForAuth.quarryAuth = undefined;
    throw error;
  });
  return globalForAuth.quarryAuth;
};

/** The signed-in user behind a request's session cookie, or null. */
export const sessionFromHeaders = async (headers: Headers) => {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  return session ? { userId: session.user.id, sessionId: session.session.id, user: session.user } : null;
};
