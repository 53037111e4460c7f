import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../generated/prisma/client";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * The search pool on the embedded Postgres, whose connections share one session: a search asked to run prepared
 * runs unnamed there, or two connections preparing the same statement would collide ("already exists").
 * (On a real Postgres the prepared path is pinned by vector-plan.pg.test.ts.)
 */

let server: TestDatabase;

beforeAll(async () => {
  server = await startTestDatabase();
}, 120_000);

afterAll(async () => server?.stop());

describe("the search pool on the embedded Postgres", () => {
  it("runs a search asked to be prepared without preparing it, from many connections at once", async () => {
    const { runSearch } = await import("./search-pool");
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        runSearch<{ n: number }>(Prisma.sql`SELECT ${i}::int AS n`, { prepare: true }),
      ),
    );
    expect(results.map((rows) => rows[0]!.n)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    const named = await runSearch<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'quarry\\_search\\_%'`,
    );
    expect(named[0]!.n).toBe(0);
  });
});
