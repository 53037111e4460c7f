import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { realPostgresUrl } from "../testing/scratch-database";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";
import { builtSource } from "./chunk-set-fixtures";

/**
 * Two first callers of one chunking configuration at the same instant (two flows deploying, two replicas) find one
 * chunk set, not one each. The instant is made, not waited for: a transaction of the test holds the table against
 * inserts until both callers are blocked inside (each on a lock), then lets them go. Real Postgres only: the
 * embedded one runs one transaction at a time.
 */

let server: TestDatabase;

beforeAll(async () => {
  if (!realPostgresUrl())
    throw new Error("chunk-set-race.pg.test.ts runs on a real Postgres: set QUARRY_TEST_POSTGRES_URL");
  server = await startTestDatabase();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const blockedBackends = async (client: pg.Client) => {
  const { rows } = await client.query<{ n: number }>(
    "SELECT count(DISTINCT pid)::int AS n FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()",
  );
  return rows[0]!.n;
};

it("gives two first callers held at the same instant one set, built once", async () => {
  const { db } = await import("../db");
  const { input, ensureFlowChunkSet } = await builtSource("race-first");
  const holder = new pg.Client({ connectionString: server.url });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    await holder.query("LOCK TABLE chunk_sets IN SHARE MODE");
    const calls = [ensureFlowChunkSet(input), ensureFlowChunkSet(input)];
    while ((await blockedBackends(holder)) < 2) await new Promise((r) => setTimeout(r, 50));
    await holder.query("COMMIT");

    const [a, b] = await Promise.all(calls);
    expect(b!.id).toBe(a!.id);
    const sets = await db.chunkSet.findMany({ where: { sourceId: input.sourceId, ownerKind: "flow_chunking" } });
    expect(sets.map((s) => s.status)).toEqual(["ready"]);
    expect(await db.chunk.count({ where: { chunkSetId: a!.id } })).toBe(a!.chunkCount);
  } finally {
    await holder.end();
  }
});
