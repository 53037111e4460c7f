import { db } from "../db";
import { AppError } from "../errors";
import { Prisma, type ModelProvider } from "../generated/prisma/client";
import { checkProviderAddress, probeProvider, type ProbeResult } from "./connection";
import { environmentProviders } from "./env-providers";
import { currentKeyId, keyPrefix, openKey, sealKey, sealedWith } from "./key-crypto";
import type { ConnectionTest, CreateProviderInput, UpdateProviderInput } from "./model-providers.schema";
import type { ProviderView } from "./types";

/**
 * A team's model providers. Every query is scoped by the team id; the sealed key is read only where a call needs it
 * (the Prisma client omits it everywhere else), and no function here returns it.
 */

type Row = ModelProvider & { encryptedKey?: string | null };

const withKey = { omit: { encryptedKey: false } } as const;

const toView = (row: Row, keyId: string): ProviderView => ({
  id: row.id,
  source: "team",
  kind: row.kind,
  name: row.name,
  baseUrl: row.baseUrl,
  keyPrefix: row.keyPrefix,
  keyStatus: !row.encryptedKey ? "none" : sealedWith(row.encryptedKey, keyId) ? "ok" : "unreadable",
  settings: null,
  servedModels: row.servedModels,
  modelsFetchedAt: row.modelsFetchedAt,
  lastTest: (row.lastTest as ConnectionTest | null) ?? null,
  updatedAt: row.updatedAt,
});

const findRow = async (teamId: string, providerId: string): Promise<Row> => {
  const row = await db.modelProvider.findFirst({ where: { id: providerId, teamId }, ...withKey });
  if (!row) throw new AppError("NOT_FOUND", "Provider not found");
  return row;
};

const assertNameFree = async (teamId: string, name: string, exceptId?: string) => {
  const clash = await db.modelProvider.findFirst({
    where: { teamId, name, id: exceptId ? { not: exceptId } : undefined },
  });
  if (clash) throw new AppError("CONFLICT", `This team already has a provider named ${name}`);
};

/** The team's providers (newest last) and the environment's, read-only. */
export const listProviders = async (teamId: string) => {
  const rows = await db.modelProvider.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, ...withKey });
  const keyId = await currentKeyId();
  return { providers: rows.map((row) => toView(row, keyId)), environment: environmentProviders() };
};

export const createProvider = async (teamId: string, input: CreateProviderInput, createdById: string | null) => {
  await checkProviderAddress(input.baseUrl);
  await assertNameFree(teamId, input.name);
  const key = input.apiKey || null;
  const row = await db.modelProvider.create({
    data: {
      teamId,
      kind: input.kind,
      name: input.name,
      baseUrl: input.baseUrl,
      encryptedKey: key ? await sealKey(key, teamId) : null,
      keyPrefix: key ? keyPrefix(key) : null,
      createdById,
    },
    ...withKey,
  });
  return toView(row, await currentKeyId());
};

const origin = (url: string) => new URL(url).origin;

/**
 * A saved key is never sent to a new server: moving a keyed provider to another origin needs the key entered again
 * (or cleared), so an admin cannot be tricked into forwarding it by a changed address alone.
 */
export const updateProvider = async (teamId: string, providerId: string, input: UpdateProviderInput) => {
  const row = await findRow(teamId, providerId);
  const newKey = input.apiKey || null;
  const baseUrl = input.baseUrl ?? row.baseUrl;
  if (input.baseUrl) await checkProviderAddress(input.baseUrl);
  if (origin(baseUrl) !== origin(row.baseUrl) && row.encryptedKey && !newKey && !input.clearKey) {
    throw new AppError("BAD_REQUEST", "Enter the key again to use it at a new address");
  }
  if (input.name) await assertNameFree(teamId, input.name, providerId);
  const key = newKey
    ? { encryptedKey: await sealKey(newKey, teamId), keyPrefix: keyPrefix(newKey) }
    : input.clearKey
      ? { encryptedKey: null, keyPrefix: null }
      : {};
  const moved = baseUrl !== row.baseUrl || (input.kind && input.kind !== row.kind);
  const updated = await db.modelProvider.update({
    where: { id: row.id },
    data: {
      kind: input.kind,
      name: input.name,
      baseUrl,
      ...key,
      // What another address served says nothing about this one.
      ...(moved ? { servedModels: [], modelsFetchedAt: null, lastTest: Prisma.DbNull } : {}),
    },
    ...withKey,
  });
  return toView(updated, await currentKeyId());
};

export const removeProvider = async (teamId: string, providerId: string) => {
  const { count } = await db.modelProvider.deleteMany({ where: { id: providerId, teamId } });
  if (!count) throw new AppError("NOT_FOUND", "Provider not found");
};

/**
 * Tests the connection and refreshes the cached model list. An unreadable key (the server secret changed) is a
 * result like any other failure, not an error.
 */
export const testProvider = async (teamId: string, providerId: string) => {
  const row = await findRow(teamId, providerId);
  let result: ProbeResult;
  try {
    const apiKey = row.encryptedKey ? await openKey(row.encryptedKey, teamId) : null;
    result = await probeProvider({ kind: row.kind, baseUrl: row.baseUrl, apiKey });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    result = { ok: false, latencyMs: 0, message: error.message, at: new Date().toISOString(), models: null };
  }
  const { models, ...test } = result;
  const updated = await db.modelProvider.update({
    where: { id: row.id },
    data: { lastTest: test, ...(models ? { servedModels: models, modelsFetchedAt: new Date() } : {}) },
    ...withKey,
  });
  return { test, provider: toView(updated, await currentKeyId()) };
};
