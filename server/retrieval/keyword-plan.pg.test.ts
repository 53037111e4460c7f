import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../generated/prisma/client";
import { explainPrepared } from "../testing/explain-prepared";
import { realPostgresUrl } from "../testing/scratch-database";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * The ts_rank fallback on a real Postgres (no BM25 there): the question's tsquery is built inside the search
 * statement (one round trip), once per statement, the common words left out by pg_stats' frequencies; the GIN index
 * finds the matches and at most MAX_RANKED_MATCHES of them are ranked, so a question of common words does not rank
 * every chunk; and for a question of rarer words the top results are those of ranking every match.
 * Real-Postgres only (`*.pg.test.ts`): the embedded server always has BM25.
 */

const CHUNKS = 3000;
let server: TestDatabase;
let projectId = "";

const load = async () => ({
  db: (await import("../db")).db,
  ...(await import("./vector-search")),
  ...(await import("./search-pool")),
  ...(await import("./keyword-query")),
});

/**
 * Every chunk says "quarry report" (common words); one in 11 names a mineral and one in 100 two of them (each mineral
 * in under 2% of the chunks: rare words); chunk 1234 names a mineral found nowhere else.
 */
const chunkText = (i: number) => {
  const minerals = ["granite", "basalt", "marble", "gneiss", "quartzite", "slate", "schist"];
  const named = i % 11 === 0 ? ` The face showed ${minerals[(i / 11) % 7]}.` : "";
  const twice = i % 100 === 0 ? ` More ${minerals[(i / 100) % 7]} and ${minerals[(i / 100 + 1) % 7]} below.` : "";
  return `Quarry report ${i}: the quarry face was surveyed.${named}${twice}${i === 1234 ? " Serpentinite!" : ""}`;
};

beforeAll(async () => {
  if (!realPostgresUrl())
    throw new Error("keyword-plan.pg.test.ts runs on a real Postgres: set QUARRY_TEST_POSTGRES_URL");
  server = await startTestDatabase({ keywordEngine: true });
  const { keywordEngine } = await import("./keyword-engine");
  expect(await keywordEngine()).toBe("fulltext");
  const { ensureProject } = await import("../projects/service");
  const { db } = await load();
  projectId = (await ensureProject("keyword-plan")).id;
  const source = await db.source.create({
    data: { projectId, fileName: "report.md", fileType: "md", fileSize: 0, fileSource: "local file" },
  });
  const set = await db.chunkSet.create({ data: { projectId, sourceId: source.id, status: "ready" } });
  await db.chunk.createMany({
    data: Array.from({ length: CHUNKS }, (_, i) => ({
      projectId,
      sourceId: source.id,
      chunkSetId: set.id,
      position: i,
      text: chunkText(i),
    })),
  });
  await db.$executeRawUnsafe("ANALYZE chunks");
}, 240_000);

afterAll(async () => server?.stop());

const keywordSearch = async (text: string, limit = 10) => {
  const { searchSql, commonLexemes } = await load();
  return searchSql({
    projectId,
    mode: "keyword",
    vector: null,
    keyword: { engine: "fulltext", text, common: await commonLexemes() },
    vectorWeight: 0,
    pool: 50,
    limit,
    distinctDocuments: false,
  });
};

const run = async (text: string, limit = 10) => {
  const { runSearch } = await load();
  return runSearch<{ id: string | null; position: number | null; keyword: number | null }>(
    await keywordSearch(text, limit),
  );
};

const explain = async (text: string, options = Prisma.sql`ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF`) => {
  const { runSearch } = await load();
  const rows = await runSearch<{ "QUERY PLAN": string }>(Prisma.sql`EXPLAIN (${options}) ${await keywordSearch(text)}`);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
};

const tsQueryOf = async (text: string) => {
  const { db, fullTextQuerySql, commonLexemes } = await load();
  const rows = await db.$queryRaw<{ q: string | null }[]>`
    SELECT q::text FROM (${fullTextQuerySql(text, await commonLexemes())}) x`;
  return rows[0]!.q;
};

describe("the full-text keyword side on a real Postgres", () => {
  it("leaves common words out of the tsquery, keeps the rarest when all are common, and takes any string", async () => {
    expect(await tsQueryOf("quarry granite serpentinite")).toBe("'granit' | 'serpentinit'");
    expect(await tsQueryOf("quarry report")).toMatch(/^'(quarri|report)'( \| '(quarri|report)')?$/);
    expect(await tsQueryOf("the of and")).toBeNull();
    for (const hostile of ["O'Brien's \\ granite", "'); DROP TABLE chunks; --", "a\\'b", "&|!<->:*()"]) {
      await expect(run(hostile)).resolves.toBeInstanceOf(Array);
    }
    expect((await run("O'Brien's serpentinite"))[0]).toMatchObject({ position: 1234 });
  });

  it("builds the tsquery once per statement and finds the matches through the GIN index", async () => {
    const plan = await explain("granite basalt");
    expect(plan.match(/CTE keyword_query/g)).toHaveLength(1);
    expect(plan).toMatch(/Bitmap Index Scan on chunks_tsv_idx[^\n]*\n\s*Index Cond: \(tsv @@ \$\d+\)/);
  });

  it("reads each ranked match's tsvector once: the scan sorts by the ts_rank it selects", async () => {
    // Every function given a tsvector reads it from TOAST again; the ranking sort is where each match passes.
    const plan = await explain("granite basalt", Prisma.sql`VERBOSE, COSTS OFF`);
    const sort = /-> {2}Sort\n\s*Output: ([^\n]*)\n\s*Sort Key: ([^\n]*ts_rank[^\n]*)/.exec(plan);
    expect(sort, plan).not.toBeNull();
    const [node, output = "", key = ""] = sort!;
    expect(output.match(/\btsv\b/g), node).toHaveLength(1);
    expect(key.match(/\btsv\b/g), node).toHaveLength(1);
  });

  it("ranks at most MAX_RANKED_MATCHES chunks for a question of words every chunk has", async () => {
    const { MAX_RANKED_MATCHES } = await load();
    expect(CHUNKS).toBeGreaterThan(MAX_RANKED_MATCHES);
    const plan = await explain("quarry report");
    const ranked = /Subquery Scan on c[^\n]*actual rows=(\d+)/.exec(plan);
    expect(ranked, plan).not.toBeNull();
    expect(Number(ranked![1])).toBe(MAX_RANKED_MATCHES);
    expect(await run("quarry report")).toHaveLength(10);
  });

  it("returns the top of ranking every match for a question of rarer words", async () => {
    const { db } = await load();
    const question = "granite and basalt in the quarry";
    const everyMatch = await db.$queryRaw<{ position: number; rank: number }[]>`
      WITH k AS (SELECT to_tsquery('simple', 'granit | basalt') AS q)
      SELECT c.position, ts_rank(c.tsv, k.q, 1)::float8 AS rank FROM chunks c, k
      WHERE c.project_id = ${projectId}::uuid AND c.tsv @@ k.q`;
    expect(everyMatch.length).toBeLessThan(CHUNKS / 5);
    const best = Math.max(...everyMatch.map((m) => m.rank));
    const top = [...everyMatch].sort((a, b) => b.rank - a.rank || a.position - b.position).slice(0, 10);
    const rows = await run(question);
    expect(rows.map((r) => Number(r.keyword).toFixed(6))).toEqual(top.map((m) => (m.rank / best).toFixed(6)));
    // The chunks naming both minerals score highest.
    const both = rows.slice(0, 2).map((r) => chunkText(r.position!));
    expect(
      both.every((text) => text.includes("granite") && text.includes("basalt")),
      both.join("\n"),
    ).toBe(true);
  });

  it("keeps, in the prepared statement's generic plan, the GIN index, the bound on ranking and the plain rows", async () => {
    const { MAX_RANKED_MATCHES, runSearch, searchConnectionOptions, searchQuery } = await load();
    const client = new pg.Client({
      connectionString: server.url,
      options: searchConnectionOptions({ prepared: true }),
    });
    await client.connect();
    try {
      for (const question of ["quarry report", "granite and basalt in the quarry", "O'Brien's serpentinite"]) {
        const sql = await keywordSearch(question);
        const plain = await runSearch(sql);
        expect((await client.query(searchQuery(sql, true))).rows, question).toEqual(plain);
      }
      const plan = await explainPrepared(
        client,
        await keywordSearch("quarry report"),
        "ANALYZE, COSTS OFF, TIMING OFF",
      );
      expect(plan).toMatch(/Bitmap Index Scan on chunks_tsv_idx/);
      expect(Number(/Subquery Scan on c[^\n]*actual rows=(\d+)/.exec(plan)?.[1]), plan).toBe(MAX_RANKED_MATCHES);
      const plans = await client.query<{ custom: number; generic: number }>(
        "SELECT sum(custom_plans)::int AS custom, sum(generic_plans)::int AS generic FROM pg_prepared_statements",
      );
      expect(plans.rows[0]!.custom).toBe(0);
      expect(plans.rows[0]!.generic).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });
});
