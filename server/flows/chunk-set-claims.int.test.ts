import { afterAll, beforeAll, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations } from "../postgres/migrate";
import { builtSource } from "./chunk-set-fixtures";

/**
 * A flow chunk set still `building` belongs to another attempt while its builder keeps it fresh (a second flow with
 * the same settings deploying, a simulation, another replica): it is waited for, never wiped; one nobody touched for
 * a job lease lost its builder and is rebuilt. The other attempt is played by the test, so nothing depends on timing.
 */

let server: EmbeddedPostgres;

beforeAll(async () => {
  server = await startEmbeddedPostgres({ port: 0 });
  await applyMigrations({ url: server.url });
  setRuntimeEnv("DATABASE_URL", server.url);
}, 120_000);

afterAll(async () => {
  const { disconnectDb } = await import("../db");
  await disconnectDb();
  await server?.stop();
});

/** builtSource, with its chunk set built once. */
const builtSet = async (name: string) => {
  const { db } = await import("../db");
  const { input, ensureFlowChunkSet } = await builtSource(name);
  const set = await ensureFlowChunkSet(input);
  expect(set.status).toBe("ready");
  const chunks = await db.chunk.count({ where: { chunkSetId: set.id, embeddingIndexId: { not: null } } });
  expect(chunks).toBeGreaterThan(1);
  return { input, set, chunks, ensureFlowChunkSet };
};

/** The set as another attempt leaves it mid-build: `building`, one chunk of its own, last touched at `touched`. */
const midBuild = async (set: { id: string; projectId: string; sourceId: string | null }, touched: Date) => {
  const { db } = await import("../db");
  await db.chunk.deleteMany({ where: { chunkSetId: set.id } });
  const own = await db.chunk.create({
    data: { projectId: set.projectId, sourceId: set.sourceId!, chunkSetId: set.id, position: 0, text: "theirs" },
  });
  await db.chunkSet.update({ where: { id: set.id }, data: { status: "building", updatedAt: touched } });
  return own;
};

it("waits for a set another live attempt is building, and leaves its chunks alone", async () => {
  const { db } = await import("../db");
  const { input, set, ensureFlowChunkSet } = await builtSet("claims-live");
  const own = await midBuild(set, new Date());

  const waiting = ensureFlowChunkSet(input);
  // The other attempt finishes (its chunks and count are what it wrote).
  await new Promise((r) => setTimeout(r, 300));
  await db.chunkSet.update({ where: { id: set.id }, data: { status: "ready", chunkCount: 1 } });

  expect(await waiting).toMatchObject({ id: set.id, status: "ready", chunkCount: 1 });
  expect(await db.chunk.findMany({ where: { chunkSetId: set.id }, select: { id: true } })).toEqual([{ id: own.id }]);
});

it("rebuilds a set whose builder stopped touching it for a job lease (a crash)", async () => {
  const { db } = await import("../db");
  const { input, set, chunks, ensureFlowChunkSet } = await builtSet("claims-stale");
  const own = await midBuild(set, new Date(Date.now() - 10 * 60_000));

  expect(await ensureFlowChunkSet(input)).toMatchObject({ id: set.id, status: "ready", chunkCount: chunks });
  const rows = await db.chunk.findMany({ where: { chunkSetId: set.id }, select: { id: true, text: true } });
  expect(rows.map((r) => r.id)).not.toContain(own.id);
  expect(rows).toHaveLength(chunks);
  expect(await db.chunk.count({ where: { chunkSetId: set.id, embeddingIndexId: { not: null } } })).toBe(chunks);
});
