import { randomUUID } from "node:crypto";
import { verifyApiToken, type TokenAuth } from "../auth/api-tokens";
import { sessionFromHeaders } from "../auth/auth";
import { logger, type Logger } from "../logger";

/**
 * Who is calling. Public REST carries a project-bound API token; the dashboard carries a signed-in user's session.
 * Nothing else grants anything: not the Host header, not the client's address.
 */
export type AuthContext =
  | ({ kind: "token" } & TokenAuth)
  | { kind: "session"; userId: string; sessionId: string; email: string }
  | { kind: "anonymous"; reason: "missing" | "invalid" };

export type Context = { auth: AuthContext; requestId: string; logger: Logger };

const bearer = (header: string | null): string | null => {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
};

/** Context for the public REST API: the Bearer token decides everything. */
export const createTokenContext = async (req: Request): Promise<Context> => {
  const requestId = req.headers.get("x-request-id") ?? randomUUID();
  const token = bearer(req.headers.get("authorization"));
  const verified = token ? await verifyApiToken(token) : null;
  const auth: AuthContext = verified
    ? { kind: "token", ...verified }
    : { kind: "anonymous", reason: token ? "invalid" : "missing" };
  return {
    auth,
    requestId,
    logger: logger.child({ requestId, auth: auth.kind, projectId: verified?.projectId }),
  };
};

/**
 * Context for the dashboard's routes (tRPC, upload, events, page images): the session cookie decides. Routes that
 * change state call `assertSameOrigin` first (server/auth/origin.ts).
 */
export const createDashboardContext = async (req: Request): Promise<Context> => {
  const requestId = randomUUID();
  const session = await sessionFromHeaders(req.headers);
  const auth: AuthContext = session
    ? { kind: "session", userId: session.userId, sessionId: session.sessionId, email: session.user.email }
    : { kind: "anonymous", reason: "missing" };
  return { auth, requestId, logger: logger.child({ requestId, auth: auth.kind, userId: session?.userId }) };
};
