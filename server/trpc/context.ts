import { randomUUID } from "node:crypto";
import { verifyApiToken, type TokenAuth } from "../auth/api-tokens";
import { logger, type Logger } from "../logger";

/**
 * Who is calling. Public REST carries a project-bound API token; the dashboard is served to the local operator
 * (the embedded mode binds to loopback and there is no browser sign-in yet).
 */
export type AuthContext =
  ({ kind: "token" } & TokenAuth) | { kind: "local" } | { kind: "anonymous"; reason: "missing" | "invalid" };

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

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Context for the dashboard's tRPC endpoint. Only requests addressed to a loopback host name count as the local
 * operator: that keeps a web page that rebinds its own DNS name to 127.0.0.1 out of the dashboard.
 */
export const createDashboardContext = async (req: Request): Promise<Context> => {
  const requestId = randomUUID();
  const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "").toLowerCase();
  const auth: AuthContext = LOOPBACK_HOSTS.has(host) ? { kind: "local" } : { kind: "anonymous", reason: "missing" };
  return { auth, requestId, logger: logger.child({ requestId, auth: auth.kind }) };
};
