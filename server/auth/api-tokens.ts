import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { db } from "../db";
import { env } from "../env";
import type { Permission } from "../generated/prisma/enums";

export const ALL_PERMISSIONS: Permission[] = ["read", "write", "delete", "deploy"];
export const TOKEN_PREFIX = "qry_";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const TOKEN_BODY_LENGTH = 43; // 43 base62 chars ≈ 256 bits: no brute force, so a plain sha256 is a safe hash.

/** A fresh `qry_` token. Rejection sampling keeps every base62 character equally likely. */
export const generateToken = (): string => {
  let body = "";
  while (body.length < TOKEN_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < TOKEN_BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return TOKEN_PREFIX + body;
};

export const hashToken = (token: string): string =>
  createHash("sha256").update(env.QUARRY_TOKEN_PEPPER).update(token).digest("hex");

const displayPrefix = (token: string) => `${token.slice(0, 8)}…${token.slice(-4)}`;

/** A project's team and default model ids per role (null: the install's default), as the projects table holds them. */
export type ProjectDefaults = {
  teamId: string;
  defaults: {
    chat: string | null;
    embedding: string | null;
    rerank: string | null;
    vision: string | null;
    speech: string | null;
  };
};

/**
 * `projectDeleting`: the token's project is being deleted (server/projects/delete.ts); every call is refused.
 * `project`: its team and default models, read in the same statement as the token, so a request that resolves a
 * model (a search embeds its query) need not read the project again (server/model-providers/resolve.ts).
 */
export type TokenAuth = {
  tokenId: string;
  projectId: string;
  permissions: Permission[];
  projectDeleting?: true;
  project?: ProjectDefaults;
};

export const createApiToken = async ({
  projectId,
  name = "API token",
  permissions = ALL_PERMISSIONS,
  token = generateToken(),
  createdById,
}: {
  projectId: string;
  name?: string;
  permissions?: Permission[];
  /** The dashboard user creating it; the CLI and the bootstrap leave it empty. */
  createdById?: string;
  /** Supplied only by the headless bootstrap (QUARRY_INIT_TOKEN); otherwise generated. */
  token?: string;
}) => {
  const record = await db.apiToken.create({
    data: {
      projectId,
      name,
      permissions,
      hashedToken: hashToken(token),
      displayPrefix: displayPrefix(token),
      createdById,
    },
  });
  return { token, record };
};

type TokenRow = {
  id: string;
  project_id: string;
  permissions: Permission[];
  revoked_at: Date | null;
  expires_at: Date | null;
  hashed_token: string;
  deleting_at: Date | null;
  team_id: string;
  default_chat_model: string | null;
  default_embedding_model: string | null;
  default_rerank_model: string | null;
  default_vision_model: string | null;
  default_speech_model: string | null;
};

/**
 * Resolves a presented token to its project and permissions, or null when unknown, revoked or expired. One statement
 * per request, token and project together, and no cache: a token revoked or a project marked for deletion on any
 * replica is refused from the next call on.
 */
export const verifyApiToken = async (token: string): Promise<TokenAuth | null> => {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const hashed = hashToken(token);
  const [row] = await db.$queryRaw<TokenRow[]>`
    SELECT t.id, t.project_id, t.permissions::text[] AS permissions, t.revoked_at, t.expires_at, t.hashed_token,
      p.deleting_at, p.team_id, p.default_chat_model, p.default_embedding_model, p.default_rerank_model,
      p.default_vision_model, p.default_speech_model
    FROM api_tokens t JOIN projects p ON p.id = t.project_id
    WHERE t.hashed_token = ${hashed}`;
  if (!row || row.revoked_at || (row.expires_at && row.expires_at <= new Date())) return null;
  // The lookup is by hash already; the constant-time compare guards against a future non-unique lookup path.
  if (!timingSafeEqual(Buffer.from(row.hashed_token), Buffer.from(hashed))) return null;
  const project: ProjectDefaults = {
    teamId: row.team_id,
    defaults: {
      chat: row.default_chat_model,
      embedding: row.default_embedding_model,
      rerank: row.default_rerank_model,
      vision: row.default_vision_model,
      speech: row.default_speech_model,
    },
  };
  const auth: TokenAuth = { tokenId: row.id, projectId: row.project_id, permissions: row.permissions, project };
  return row.deleting_at ? { ...auth, projectDeleting: true } : auth;
};

/** lastUsedAt is kept to the minute: one write per token and minute, not one per request. */
const TOUCH_INTERVAL_MS = 60_000;
const touched = new Map<string, number>();

/** Whether touchApiToken would write now: callers skip scheduling it at all on most requests. */
export const apiTokenTouchDue = (tokenId: string, now = Date.now()) =>
  now - (touched.get(tokenId) ?? 0) >= TOUCH_INTERVAL_MS;

export const touchApiToken = async (tokenId: string) => {
  const now = Date.now();
  if (!apiTokenTouchDue(tokenId, now)) return;
  touched.set(tokenId, now);
  if (touched.size > 10_000) touched.clear();
  await db.apiToken.update({ where: { id: tokenId }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
};

/** Revokes by token value. Returns false when no active token matches. */
export const revokeApiToken = async (token: string): Promise<boolean> => {
  const { count } = await db.apiToken.updateMany({
    where: { hashedToken: hashToken(token), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
};

/** A project's tokens for the dashboard (never the hash), newest first, revoked ones included and marked. */
export const listApiTokens = (projectId: string) =>
  db.apiToken.findMany({
    where: { projectId },
    select: {
      id: true,
      name: true,
      displayPrefix: true,
      permissions: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      createdBy: { select: { name: true, email: true } },
    },
    orderBy: { createdAt: "desc" },
  });

/** Revokes one of the project's tokens by id; verification refuses it from the next call on. */
export const revokeApiTokenById = async ({ projectId, tokenId }: { projectId: string; tokenId: string }) => {
  const { count } = await db.apiToken.updateMany({
    where: { id: tokenId, projectId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
};

/** A token's name (revoked or not), or null when no token has this id. */
export const apiTokenName = async (tokenId: string) =>
  (await db.apiToken.findUnique({ where: { id: tokenId }, select: { name: true } }))?.name ?? null;
