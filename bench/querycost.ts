import pg from "pg";
import type { Prisma } from "@/server/generated/prisma/client";
import type { QuarryProcess } from "@/server/testing/quarry-process";
import { copyCorpus } from "./querycost-copy";
import { vectorRecall } from "./querycost-recall";
import { CLIENTS, cpuSince, formatLoad, measure, postgresCpu, threadCpu, type Meter } from "./querycost-load";
import { distinctIds, loadSciFact, ndcgAt10, type SciFact } from "./scifact";
import { fmt } from "./stats";

/**
 * What one prebuilt-rag query costs on the SciFact corpus (5,183 documents, about 6.5k chunks), default settings:
 * p50, p95 and throughput with one client and with 20 at once, through HTTP next to the same SQL alone (the statement
 * the app builds for the query, sent straight to Postgres), and the database's, the app's and the load's own CPU per
 * query.
 * Always on the embedded Postgres of a Quarry started as `npm start` runs it (its database in a thread of the app
 * process, whose CPU is read per thread); also on a real Postgres when QUARRY_BENCH_POSTGRES_URL (an admin URL of a
 * server on this machine, with pgvector) is set: a database of its own there, a second Quarry on it, and the same
 * rows copied over. BENCH_QUERYCOST_DATA_DIR keeps the embedded Quarry's data directory for another run (the ingest
 * is then skipped).
 */

type Target = {
  quarry: QuarryProcess;
  databaseUrl: string;
  projectId: string;
  index: { id: string; dimension: number };
  /** Chunks of the project measured (a kept data dir may hold a partial ingest). */
  chunks: number;
};

const QUERIES = 400;
const RECALL_QUERIES = 100;

/** The statement prebuilt-rag runs for a query, as the app builds it (same engine, same keyword query). */
const planner = async (target: Target) => {
  const { apiClient } = await import("@/server/testing/quarry-process");
  const { searchSql } = await import("@/server/retrieval/vector-search");
  const { HYBRID_VECTOR_WEIGHT } = await import("@/server/retrieval/retrieve");
  const { getEmbedder } = await import("@/server/providers/embedding");
  const { toVectorLiteral } = await import("@/server/retrieval/embedding-index");
  const { commonLexemes } = await import("@/server/retrieval/keyword-query");
  const config = (await (await apiClient(target.quarry).get("/config")).json()) as { keyword_engine: string };
  const engine = config.keyword_engine === "bm25" ? "bm25" : "fulltext";
  const plan = async (query: string) => {
    const [vector] = await getEmbedder().embed([query]);
    return searchSql({
      projectId: target.projectId,
      mode: "hybrid",
      vector: { literal: toVectorLiteral(vector!), index: target.index },
      keyword: engine === "bm25" ? { engine, text: query } : { engine, text: query, common: await commonLexemes() },
      vectorWeight: HYBRID_VECTOR_WEIGHT,
      pool: 50,
      limit: 10,
      distinctDocuments: false,
    });
  };
  return { plan, engine };
};

/** The pid whose thread ran the raw SQL: the embedded database's thread in the app process. */
const embeddedMeter = async (pid: number, calibrate: () => Promise<void>): Promise<Meter> => {
  const before = threadCpu(pid);
  await calibrate();
  const after = threadCpu(pid);
  const dbThread = [...after].sort((a, b) => b[1] - (before.get(b[0]) ?? 0) - (a[1] - (before.get(a[0]) ?? 0)))[0]![0];
  return {
    snapshot: () => threadCpu(pid),
    spent: (since) => {
      const was = since as Map<string, number>;
      const now = threadCpu(pid);
      const total = cpuSince(was, now);
      const db = (now.get(dbThread) ?? 0) - (was.get(dbThread) ?? 0);
      return { db, app: total - db };
    },
  };
};

const externalMeter = (appPid: number, dbCpu: () => Map<number, number> | null): Meter => ({
  snapshot: () => ({ app: threadCpu(appPid), db: dbCpu() }),
  spent: (since) => {
    const was = since as { app: Map<string, number>; db: Map<number, number> | null };
    const db = dbCpu();
    return { app: cpuSince(was.app, threadCpu(appPid)), db: db && was.db ? cpuSince(was.db, db) : null };
  },
});

const runTarget = async (target: Target, queries: string[], external: boolean) => {
  const { apiClient } = await import("@/server/testing/quarry-process");
  const { searchConnectionOptions } = await import("@/server/retrieval/search-pool");
  const api = apiClient(target.quarry);
  const { searchQuery } = await import("@/server/retrieval/search-pool");
  const plans = new Map<string, Prisma.Sql>();
  const { plan, engine } = await planner(target);
  for (const q of queries) plans.set(q, await plan(q));
  // The app's search connections' settings (server/retrieval/search-pool.ts); the embedded server has them in its conf.
  const pool = new pg.Pool({
    connectionString: target.databaseUrl,
    max: CLIENTS,
    // Kept open for the whole run: a backend that exits takes its CPU time out of the database's count.
    idleTimeoutMillis: 0,
    options: searchConnectionOptions(),
  });
  // What the app runs on a real Postgres with the full-text engine: prepared, on connections that plan it generically
  // (server/retrieval/search-pool.ts).
  const preparedPool = new pg.Pool({
    connectionString: target.databaseUrl,
    max: CLIENTS,
    idleTimeoutMillis: 0,
    options: searchConnectionOptions({ prepared: true }),
  });
  try {
    const sql = (q: string) => pool.query(searchQuery(plans.get(q)!, false));
    const prepared =
      external && engine === "fulltext"
        ? (q: string) => preparedPool.query(searchQuery(plans.get(q)!, true))
        : undefined;
    const appPid = target.quarry.pid()!;
    const calibrate = async () => void (await Promise.all(queries.slice(0, 40).map(sql)));
    const backend = Number((await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid);
    const meter = external ? externalMeter(appPid, postgresCpu(backend)) : await embeddedMeter(appPid, calibrate);
    const call = async (query: string) => {
      const res = await api.post("/prebuilt-rag", { query });
      if (!res.ok) throw new Error(`prebuilt-rag answered ${res.status}: ${await res.text()}`);
      return res.json();
    };
    const rows = await measure({ api: call, sql, prepared, queries, meter });
    const identical = prepared ? await sameRows(queries, sql, prepared) : null;
    return { rows, identical, recall: await recall(target, queries.slice(0, RECALL_QUERIES)) };
  } finally {
    await Promise.all([pool.end(), preparedPool.end()]);
  }
};

/**
 * Queries whose plain and prepared statements returned the same rows (ids, order, scores), run after the load, when
 * Postgres had had every chance to switch the prepared statement to a generic plan.
 */
const sameRows = async (
  queries: string[],
  plain: (q: string) => Promise<pg.QueryResult>,
  prepared: (q: string) => Promise<pg.QueryResult>,
) => {
  let same = 0;
  for (const q of queries) {
    const [a, b] = [(await plain(q)).rows, (await prepared(q)).rows];
    if (JSON.stringify(a) === JSON.stringify(b)) same += 1;
  }
  return { same, of: queries.length };
};

/** HNSW recall@10 against exact search for these queries, on the target's database with the search settings. */
const recall = async (target: Target, queries: string[]) => {
  const { getEmbedder } = await import("@/server/providers/embedding");
  const { toVectorLiteral } = await import("@/server/retrieval/embedding-index");
  const { searchConnectionOptions } = await import("@/server/retrieval/search-pool");
  const vectors = (await getEmbedder().embed(queries)).map(toVectorLiteral);
  const { databaseUrl, projectId, index } = target;
  return vectorRecall({ databaseUrl, options: searchConnectionOptions(), projectId, index, vectors });
};

const recallLine = (database: string, value: number | null) =>
  `querycost: ${database}: HNSW recall@10 against exact search ${value === null ? "n/a" : fmt(value, 3)} ` +
  `(${RECALL_QUERIES} queries)`;

/** nDCG@10 of prebuilt-rag's own answer (10 chunks, documents by their first chunk): no change allowed. */
const quality = async (quarry: QuarryProcess, sf: SciFact) => {
  const { apiClient } = await import("@/server/testing/quarry-process");
  const api = apiClient(quarry);
  let total = 0;
  for (const q of sf.queries) {
    const body = (await (await api.post("/prebuilt-rag", { query: q.text })).json()) as {
      chunks: { file_name: string }[];
    };
    const docs = distinctIds(body.chunks.map((c) => c.file_name.replace(/^scifact-|\.md$/g, "")));
    total += ndcgAt10(docs, sf.qrels.get(q.id) ?? new Set());
  }
  return total / sf.queries.length;
};

/**
 * BENCH_QUERYCOST_DOCS ingests only the first N documents (a quicker run on a busy machine): the costs are then of a
 * smaller corpus, and nDCG@10 is not comparable (most queries' relevant documents are missing).
 */
const subset = (sf: SciFact): SciFact => {
  const limit = Number(process.env.BENCH_QUERYCOST_DOCS ?? 0);
  return Number.isInteger(limit) && limit > 0 ? { ...sf, docs: sf.docs.slice(0, limit) } : sf;
};

export const benchQueryCost = async () => {
  const full = loadSciFact();
  if (!full) return "querycost: SciFact (../shared/eval/scifact) not found; skipped";
  const sf = subset(full);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const queries = sf.queries.map((q) => q.text).slice(0, QUERIES);
  const embedded = await startEmbedded(sf, say);
  const out: string[] = [];
  const notes: string[] = [];
  try {
    const { rows, recall: embeddedRecall } = await runTarget(embedded, queries, false);
    out.push(formatLoad("embedded", rows));
    notes.push(recallLine("embedded", embeddedRecall));
    const ndcg = await quality(embedded.quarry, sf);
    say(`querycost: prebuilt-rag nDCG@10 on the embedded database ${fmt(ndcg, 4)} (${sf.queries.length} queries)`);
    const adminUrl = process.env.QUARRY_BENCH_POSTGRES_URL;
    if (adminUrl) {
      const real = await startExternal(adminUrl, embedded);
      try {
        const measured = await runTarget(real, queries, true);
        out.push(formatLoad("postgres", measured.rows).split("\n").slice(1).join("\n"));
        notes.push(recallLine("postgres", measured.recall));
        if (measured.identical)
          notes.push(
            `querycost: postgres: prepared statement returned the same rows as the plain one for ` +
              `${measured.identical.same} of ${measured.identical.of} queries`,
          );
      } finally {
        await real.quarry.dispose();
        await dropDatabase(adminUrl, real.databaseUrl);
      }
    } else say("querycost: QUARRY_BENCH_POSTGRES_URL not set; the real Postgres was not measured");
  } finally {
    await releaseDb();
    await embedded.quarry.dispose();
  }
  return [
    `Query cost: prebuilt-rag (hybrid, 10 chunks) on SciFact (${sf.docs.length} documents, ${embedded.chunks} ` +
      `chunks measured) next to the same SQL ` +
      `alone; CPU per query from /proc (database: the embedded database's thread, or every process of the real ` +
      `Postgres; app: the rest of the app process)`,
    out.join("\n"),
    ...notes,
  ].join("\n");
};

/** A Quarry on its own embedded database with SciFact ingested through the pipeline (or kept from a previous run). */
const startEmbedded = async (sf: SciFact, say: (line: string) => void): Promise<Target> => {
  const { startQuarry } = await import("@/server/testing/quarry-process");
  const { embeddedUrl, outsidePassword, readDataDirLock } = await import("@/server/postgres/embedded-postgres");
  const { setRuntimeEnv } = await import("@/server/env");
  const keep = process.env.BENCH_QUERYCOST_DATA_DIR;
  const quarry = await startQuarry({
    env: { QUARRY_RATE_LIMIT_PER_MIN: "0", ...(keep ? { QUARRY_DATA_DIR: keep } : {}) },
  });
  const dataDir = keep ?? quarry.dataDir;
  const databaseUrl = embeddedUrl({ port: readDataDirLock(dataDir)!.port!, password: outsidePassword(dataDir) });
  setRuntimeEnv("DATABASE_URL", databaseUrl);
  const { db } = await import("@/server/db");
  const project = (await db.project.findFirst({ where: { name: "default" } }))!;
  const chunks = await db.chunk.count({ where: { projectId: project.id } });
  if (chunks === 0) {
    const { ingestSciFact } = await import("./scifact");
    const { ms } = await ingestSciFact({ projectId: project.id, docs: sf.docs });
    say(`querycost: SciFact ingested in ${fmt(ms / 1000, 0)} s`);
  }
  // Also for a kept data dir, whose ingest may have stopped before its statistics were taken.
  await db.$executeRawUnsafe("ANALYZE");
  const measured = await db.chunk.count({ where: { projectId: project.id } });
  const { getEmbedder } = await import("@/server/providers/embedding");
  const { ensureEmbeddingIndex } = await import("@/server/retrieval/embedding-index");
  const index = await ensureEmbeddingIndex(getEmbedder());
  return { quarry, databaseUrl, projectId: project.id, index, chunks: measured };
};

/** A second Quarry on a new database of the real Postgres, with the embedded one's rows copied over. */
const startExternal = async (adminUrl: string, embedded: Target): Promise<Target> => {
  const { startQuarry } = await import("@/server/testing/quarry-process");
  const { setRuntimeEnv } = await import("@/server/env");
  const name = `quarry_querycost_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const quarry = await startQuarry({ env: { QUARRY_RATE_LIMIT_PER_MIN: "0", DATABASE_URL: databaseUrl } });
  await releaseDb();
  setRuntimeEnv("DATABASE_URL", databaseUrl);
  const { db } = await import("@/server/db");
  const project = (await db.project.findFirst({ where: { name: "default" } }))!;
  const copied = await copyCorpus({
    fromUrl: embedded.databaseUrl,
    toUrl: databaseUrl,
    fromProject: embedded.projectId,
    toProject: project.id,
    embeddingIndexId: embedded.index.id,
  });
  const index = { id: copied.embeddingIndexId, dimension: copied.dimension };
  const { hnswIndexSql } = await import("@/server/retrieval/embedding-index");
  await db.$executeRaw(hnswIndexSql(index));
  process.stdout.write(`querycost: ${copied.chunks} chunks copied to the real Postgres\n`);
  return { quarry, databaseUrl, projectId: project.id, index, chunks: copied.chunks };
};

/**
 * Closes this process's Prisma client and forgets it: it would re-open on the URL it was made with, and the next use
 * must make one for the database the bench moves to (the fulltext engine's keyword query reads that database's own
 * lexeme statistics through it), or for the next bench part's.
 */
const releaseDb = async () => {
  const { disconnectDb } = await import("@/server/db");
  await disconnectDb();
  (globalThis as { quarryDb?: unknown }).quarryDb = undefined;
};

const dropDatabase = async (adminUrl: string, databaseUrl: string) => {
  await releaseDb();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
};
