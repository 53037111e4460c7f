import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../generated/prisma/client";
import { explainPrepared } from "../testing/explain-prepared";
import { markdownDoc } from "../testing/fixtures";
import { realPostgresUrl } from "../testing/scratch-database";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * The plan the real Postgres picks for a search: the vector side must walk the model's HNSW index (with pgvector's
 * iterative scan), not read and sort every vector of the project. Real-Postgres only (`*.pg.test.ts`): the embedded
 * server's planner costs differ, and the scope expression once hid the index from Postgres 15's planner only.
 * A few thousand chunks with random vectors make the table big enough for the choice to matter.
 */

const FILLER_CHUNKS = 4000;
/** No lexeme counts as common: the full-text side searches every word of the question. */
const NONE_COMMON = { lexemes: [], frequencies: [] };
let server: TestDatabase;
let projectId = "";
let index = { id: "", dimension: 0 };
/** The keyword side's plan while the project holds one document's chunks (before the fillers). */
let smallCorpusKeywordPlan = "";

const load = async () => ({
  db: (await import("../db")).db,
  ...(await import("./vector-search")),
  ...(await import("./search-pool")),
});

beforeAll(async () => {
  if (!realPostgresUrl())
    throw new Error("vector-plan.pg.test.ts runs on a real Postgres: set QUARRY_TEST_POSTGRES_URL");
  server = await startTestDatabase({ keywordEngine: true });
  const { ensureProject } = await import("../projects/service");
  const { indexDocuments } = await import("../testing/index-documents");
  const { ensureEmbeddingIndex } = await import("./embedding-index");
  const { getEmbedder } = await import("../providers/embedding");
  const { db } = await load();
  projectId = (await ensureProject("plans")).id;
  await indexDocuments({ projectId, documents: [{ fileName: "granite.md", content: markdownDoc() }] });
  index = await ensureEmbeddingIndex(getEmbedder());
  await db.$executeRawUnsafe("ANALYZE chunks");
  smallCorpusKeywordPlan = await keywordPlan();
  // Copies of the first chunk with random vectors, in the same ready chunk set.
  await db.$executeRaw`
    INSERT INTO chunks (id, project_id, source_id, chunk_set_id, build_id, position, text, embedding_index_id, embedding)
    SELECT gen_random_uuid(), c.project_id, c.source_id, c.chunk_set_id, c.build_id, 1000 + g, 'filler ' || g,
      c.embedding_index_id,
      ARRAY(SELECT random() - 0.5 + g * 0 FROM generate_series(1, ${index.dimension}::int))::real[]::vector
    FROM (SELECT * FROM chunks WHERE project_id = ${projectId}::uuid LIMIT 1) c, generate_series(1, ${FILLER_CHUNKS}::int) g`;
  await db.$executeRawUnsafe("ANALYZE");
}, 240_000);

afterAll(async () => server?.stop());

const keywordPlan = async () => {
  const { searchSql, runSearch } = await load();
  const sql = searchSql({
    projectId,
    mode: "keyword",
    vector: null,
    keyword: { engine: "fulltext", text: "granite", common: NONE_COMMON },
    vectorWeight: 0,
    pool: 50,
    limit: 10,
    distinctDocuments: false,
  });
  const rows = await runSearch<{ "QUERY PLAN": string }>(Prisma.sql`EXPLAIN (COSTS OFF) ${sql}`);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
};

const plan = async (options: { sourceIds?: string[] } = {}, explain = Prisma.sql`EXPLAIN`) => {
  const { searchSql, runSearch } = await load();
  const vector = `[${Array.from({ length: index.dimension }, (_, i) => ((i * 7919) % 13) / 13 - 0.5).join(",")}]`;
  const sql = searchSql({
    projectId,
    ...options,
    mode: "hybrid",
    vector: { literal: vector, index },
    keyword: { engine: "fulltext", text: "granite", common: NONE_COMMON },
    vectorWeight: 0.3,
    pool: 50,
    limit: 10,
    distinctDocuments: false,
  });
  const rows = await runSearch<{ "QUERY PLAN": string }>(Prisma.sql`${explain} ${sql}`);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
};

describe("the vector side's plan on a real Postgres", () => {
  it("walks the model's HNSW index for a project-wide search instead of sorting every vector", async () => {
    const text = await plan();
    const hnsw = `chunks_embedding_hnsw_${index.id.replace(/-/g, "").slice(0, 16)}`;
    expect(text).toContain(`Index Scan using ${hnsw}`);
    // The ordering by distance is the index's, not a sort of every vector of the project.
    expect(text).not.toMatch(/Sort Key: \(+c(_\d+)?\.embedding\)?::vector\(\d+\) <=>/);
  });

  it("scores a vector candidate's keyword side once, not once per use of the score", async () => {
    // Each `tsv @@ query` reads the chunk's TOASTed tsvector again: the fusion names the raw keyword score three
    // times, and computed where it is used, the check ran three times per vector candidate.
    const text = await plan({}, Prisma.sql`EXPLAIN (VERBOSE, COSTS OFF)`);
    expect(text.match(/CASE WHEN \(c(_\d+)?\.tsv @@/g), text).toHaveLength(1);
  });

  it("reads full-text matches of a small corpus through the GIN index, not every chunk's tsvector", () => {
    // The planner does not count detoasting: without the search connections' enable_seqscan=off it read every chunk
    // of a small corpus to test `tsv @@ query` (2,500 buffers for 993 chunks) instead of the index's few matches.
    expect(smallCorpusKeywordPlan).toMatch(/Bitmap Index Scan on \S*tsv\S*/);
    expect(smallCorpusKeywordPlan).not.toMatch(/Seq Scan on chunks/);
  });

  it("ranks at most MAX_RANKED_MATCHES full-text matches, however many chunks match", async () => {
    const { searchSql, runSearch, MAX_RANKED_MATCHES } = await load();
    const sql = searchSql({
      projectId,
      mode: "keyword",
      vector: null,
      keyword: { engine: "fulltext", text: "filler", common: NONE_COMMON },
      vectorWeight: 0,
      pool: 50,
      limit: 10,
      distinctDocuments: false,
    });
    const explained = await runSearch<{ "QUERY PLAN": string }>(
      Prisma.sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`,
    );
    const text = explained.map((r) => r["QUERY PLAN"]).join("\n");
    const ranked = /Sort Key: \(*ts_rank[^\n]*\n(?:[^\n]*\n)*?[^\n]*Subquery Scan on c[^\n]*actual rows=(\d+)/.exec(
      text,
    );
    expect(ranked, text).not.toBeNull();
    expect(Number(ranked![1])).toBe(MAX_RANKED_MATCHES);
    const rows = await runSearch<{ id: string | null; keyword: number | null }>(sql);
    expect(rows).toHaveLength(10);
    expect(Number(rows[0]!.keyword)).toBe(1);
  });

  it("still answers the nearest chunks through that plan", async () => {
    const { searchSql, runSearch } = await load();
    const { db } = await load();
    const [probe] = await db.$queryRaw<{ id: string; v: string }[]>`
      SELECT id, embedding::text AS v FROM chunks WHERE project_id = ${projectId}::uuid AND text = 'filler 17'`;
    const rows = await runSearch<{ id: string | null; similarity: number | null }>(
      searchSql({
        projectId,
        mode: "vector",
        vector: { literal: probe!.v, index },
        keyword: { engine: "fulltext", text: "", common: NONE_COMMON },
        vectorWeight: 1,
        pool: 50,
        limit: 5,
        distinctDocuments: false,
      }),
    );
    expect(rows[0]).toMatchObject({ id: probe!.id });
    expect(Number(rows[0]!.similarity)).toBeCloseTo(1, 5);
  });
});

describe("the search statement prepared on a real Postgres", () => {
  /** A hybrid search for the filler chunk `n`'s vector and a word of the document. */
  const hybrid = async (n: number) => {
    const { db, searchSql } = await load();
    const [probe] = await db.$queryRaw<{ v: string }[]>`
      SELECT embedding::text AS v FROM chunks WHERE project_id = ${projectId}::uuid AND text = ${`filler ${n}`}`;
    return searchSql({
      projectId,
      mode: "hybrid",
      vector: { literal: probe!.v, index },
      keyword: { engine: "fulltext", text: "granite filler", common: NONE_COMMON },
      vectorWeight: 0.3,
      pool: 50,
      limit: 10,
      distinctDocuments: false,
    });
  };

  /** Every search type the app sends prepared: project-wide, narrowed to sources or chunk sets, distinct documents. */
  const searchTypes = async () => {
    const { db, searchSql } = await load();
    const [probe] = await db.$queryRaw<{ v: string; source: string; set: string }[]>`
      SELECT embedding::text AS v, source_id::text AS source, chunk_set_id::text AS set
      FROM chunks WHERE project_id = ${projectId}::uuid AND text = 'filler 99'`;
    const base = {
      projectId,
      mode: "hybrid" as const,
      vector: { literal: probe!.v, index },
      keyword: { engine: "fulltext" as const, text: "granite filler", common: NONE_COMMON },
      vectorWeight: 0.3,
      pool: 50,
      limit: 10,
      distinctDocuments: false,
    };
    return {
      hybrid: searchSql(base),
      vector: searchSql({ ...base, mode: "vector" }),
      keyword: searchSql({ ...base, mode: "keyword", vector: null }),
      semantic: searchSql({ ...base, limit: 30, pool: 120 }),
      sources: searchSql({ ...base, sourceIds: [probe!.source] }),
      chunkSets: searchSql({ ...base, chunkSetIds: [probe!.set] }),
      distinct: searchSql({ ...base, distinctDocuments: true, pool: 100 }),
    };
  };

  const connect = async (prepared: boolean) => {
    const { searchConnectionOptions } = await load();
    const client = new pg.Client({ connectionString: server.url, options: searchConnectionOptions({ prepared }) });
    await client.connect();
    return client;
  };

  it("returns the plain statement's rows on every run, with one generic plan made without the values", async () => {
    const { searchQuery } = await load();
    const [plainClient, preparedClient] = [await connect(false), await connect(true)];
    try {
      for (let n = 1; n <= 8; n++) {
        const sql = await hybrid(n * 37);
        const plain = (await plainClient.query(searchQuery(sql, false))).rows;
        const prepared = (await preparedClient.query(searchQuery(sql, true))).rows;
        expect(plain.length).toBe(10);
        expect(prepared).toEqual(plain);
      }
      const statements = await preparedClient.query<{ name: string; generic: string; custom: string }>(
        "SELECT name, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements",
      );
      // One statement for the eight searches: the name stands for the statement's text, not its values.
      expect(statements.rows).toHaveLength(1);
      expect(statements.rows[0]!.name).toMatch(/^quarry_search_[0-9a-f]{24}$/);
      // Planned without the values from the first run on (Postgres' own choice was a custom plan each run).
      expect(statements.rows[0]).toMatchObject({ generic: "8", custom: "0" });
    } finally {
      await Promise.all([plainClient.end(), preparedClient.end()]);
    }
  });

  it("keeps, in the generic plan of every search type, the HNSW walk, the GIN index and the plain rows", async () => {
    const { searchQuery } = await load();
    const hnsw = `chunks_embedding_hnsw_${index.id.replace(/-/g, "").slice(0, 16)}`;
    const [plainClient, preparedClient] = [await connect(false), await connect(true)];
    try {
      for (const [type, sql] of Object.entries(await searchTypes())) {
        const text = await explainPrepared(preparedClient, sql);
        if (type !== "keyword" && type !== "sources" && type !== "chunkSets") {
          expect(text, type).toContain(`Index Scan using ${hnsw}`);
        }
        expect(text, type).not.toMatch(/Sort Key: \(+c(_\d+)?\.embedding\)?::vector\(\d+\) <=>/);
        expect(text, type).toMatch(/Bitmap Index Scan on \S*tsv\S*/);
        expect(text, type).not.toMatch(/Seq Scan on chunks/);
        const plain = (await plainClient.query(searchQuery(sql, false))).rows;
        expect(plain.length, type).toBeGreaterThan(0);
        expect((await preparedClient.query(searchQuery(sql, true))).rows, type).toEqual(plain);
      }
      const custom = await preparedClient.query<{ n: number }>(
        "SELECT coalesce(sum(custom_plans), 0)::int AS n FROM pg_prepared_statements",
      );
      expect(custom.rows[0]!.n).toBe(0);
    } finally {
      await Promise.all([plainClient.end(), preparedClient.end()]);
    }
  });

  it("is what runSearch runs when asked to prepare, with the same rows as unprepared", async () => {
    const { runSearch, closeSearchPool, searchQuery } = await load();
    const sql = await hybrid(5);
    // A fresh pool used one call at a time holds a single connection: the count below reads the searches' session.
    await closeSearchPool();
    const plain = await runSearch(sql);
    for (let i = 0; i < 7; i++) expect(await runSearch(sql, { prepare: true })).toEqual(plain);
    const named = await runSearch<{ generic: number; custom: number }>(
      Prisma.sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom
        FROM pg_prepared_statements WHERE name = ${searchQuery(sql, true).name}`,
      { prepare: true },
    );
    expect(named).toEqual([{ generic: 7, custom: 0 }]);
  });
});
