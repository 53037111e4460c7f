import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * Token verification reads the token and its project in one statement and keeps nothing between calls: what changes
 * in the database (a revocation, an expiry, a project's default model, a deletion under way) counts from the very
 * next call, on any replica.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => database?.stop());

it("answers the token's project, permissions and model defaults, and sees every change from the next call", async () => {
  const { db } = await import("../db");
  const { ensureProject } = await import("../projects/service");
  const { createApiToken, revokeApiToken, verifyApiToken } = await import("./api-tokens");
  const project = await ensureProject("tokens-a");
  const other = await ensureProject("tokens-b");
  const { token, record } = await createApiToken({ projectId: project.id, permissions: ["read", "write"] });
  await createApiToken({ projectId: other.id });

  expect(await verifyApiToken(token)).toEqual({
    tokenId: record.id,
    projectId: project.id,
    permissions: ["read", "write"],
    project: {
      teamId: project.teamId,
      defaults: { chat: null, embedding: null, rerank: null, vision: null, speech: null },
    },
  });

  await db.project.update({ where: { id: project.id }, data: { defaultEmbeddingModel: "text-embedding-3-small" } });
  expect((await verifyApiToken(token))?.project?.defaults.embedding).toBe("text-embedding-3-small");

  await db.project.update({ where: { id: project.id }, data: { deletingAt: new Date() } });
  expect(await verifyApiToken(token)).toMatchObject({ projectId: project.id, projectDeleting: true });
  await db.project.update({ where: { id: project.id }, data: { deletingAt: null } });

  await db.apiToken.update({ where: { id: record.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  expect(await verifyApiToken(token)).toBeNull();
  await db.apiToken.update({ where: { id: record.id }, data: { expiresAt: null } });
  expect(await verifyApiToken(token)).not.toBeNull();

  expect(await revokeApiToken(token)).toBe(true);
  expect(await verifyApiToken(token)).toBeNull();

  // Unknown, malformed or oversized tokens are refused without an error.
  for (const bad of ["qry_unknown", "not-a-token", `qry_${"x".repeat(300)}`, "qry_'; DROP TABLE api_tokens; --"])
    expect(await verifyApiToken(bad)).toBeNull();
});
