import { createHash } from "node:crypto";
import pg from "pg";
import { env } from "../env";
import type { Prisma } from "../generated/prisma/client";
import { logger } from "../logger";

/**
 * The connections searches run on: a small pg pool of its own, beside Prisma's, whose connections start with
 * pgvector's iterative HNSW scan on (startup options, which survive RESET and DISCARD), so a search is one statement
 * with no transaction around a `SET LOCAL`. On the embedded Postgres, where startup options are ignored, the same
 * settings come from its postgresql.conf. Statements are built from Prisma.sql fragments, as everywhere else.
 *
 * Prepared (named) statements only where they are safe and pay (`runSearch(sql, { prepare: true })`, used for the
 * full-text engine): on a real Postgres the statement is parsed, rewritten and planned once per connection, not per
 * search. They run on a second pool whose connections start with `plan_cache_mode=force_generic_plan`: left to
 * itself, Postgres 15 planned each run with its values (custom plans, ~1.7 ms of planning per hybrid search at
 * SciFact's 6.5k chunks); the generic plan has the same shape (HNSW walk, GIN bitmap, the same index ranges for the
 * scope) for every search type, returns the same rows, and took the database's CPU per hybrid search from 7.1 to
 * 5.9 ms (one client, A/B interleaved, 200 SciFact queries). Not for the plain pool: node-postgres sends every
 * statement with values as an unnamed prepared one, which the setting reaches too, and BM25 needs custom plans.
 * Never prepared on the embedded Postgres, whose connections share one session (two connections preparing the same
 * name collide), and never for BM25: pg_textsearch serves a BM25 score from its index scan only when the planner can
 * fold the query to a constant, which a generic plan would not do.
 */

/**
 * HNSW candidate list per search. At 100k chunks of the scale bench, recall@10 against exact search was 0.68 at
 * ef_search 100, 0.80 at 200, 0.86 at 400 and 0.94 at 800, with p50 latency within noise of each other
 * (BENCH_ONLY=scale BENCH_SCALE_CHUNKS=100000 BENCH_SCALE_EF_SEARCH=40,100,200,400,800 npm run bench).
 * `random_page_cost` 1.1 instead of 4 (a disk that seeks): the chunks and their HNSW graph are read from memory or an
 * SSD. At 4, with ef_search 400, Postgres 15 costed the HNSW scan above reading and sorting every vector of the project
 * (SciFact's 6.5k chunks) and took the sort (server/retrieval/vector-plan.pg.test.ts).
 * `enable_seqscan` off: every part of a search is meant to be read through an index (HNSW, BM25, the full-text GIN
 * index, primary keys), and the planner does not count the cost of detoasting: on a small corpus it chose to read
 * every chunk's tsvector for the full-text side (2,500 buffers for 993 chunks, a cost that grows with the corpus)
 * rather than the GIN index's few matches. Off, the same rows came back for 60 SciFact queries with ~15 % less
 * database CPU (Debian's Postgres 15, 800 documents). Only the search connections have it; it is a cost penalty, not
 * a ban, so a statement with no index to use still runs.
 */
const searchSettings = () => ({
  "hnsw.iterative_scan": "relaxed_order",
  "hnsw.ef_search": String(env.QUARRY_HNSW_EF_SEARCH),
  random_page_cost: "1.1",
  enable_seqscan: "off",
});
/** What the connections of prepared searches add: one plan per statement, made without the values. */
const preparedSettings = { plan_cache_mode: "force_generic_plan" };
const toOptions = (settings: Record<string, string>) =>
  Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
/** The search connections' startup options (also the query-cost bench's raw SQL connections). */
export const searchConnectionOptions = ({ prepared = false }: { prepared?: boolean } = {}) =>
  toOptions({ ...searchSettings(), ...(prepared ? preparedSettings : {}) });
const MAX_CONNECTIONS = 8;

type SearchPools = { url: string; plain: pg.Pool; prepared: pg.Pool; embedded?: Promise<boolean> };
const globalForPool = globalThis as unknown as { quarrySearchPool?: SearchPools };

const createPool = (url: string, options: string) => {
  const pool = new pg.Pool({ connectionString: url, max: MAX_CONNECTIONS, options });
  pool.on("error", (err) => logger.warn({ err }, "idle search connection failed"));
  return pool;
};

/** The plain pool and the prepared statements' pool; a pool opens connections only when a search needs one. */
const searchPools = (): SearchPools => {
  const url = env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForPool.quarrySearchPool;
  if (current?.url === url) return current;
  if (current) void endPools(current);
  globalForPool.quarrySearchPool = {
    url,
    plain: createPool(url, searchConnectionOptions()),
    prepared: createPool(url, searchConnectionOptions({ prepared: true })),
  };
  return globalForPool.quarrySearchPool;
};

const endPools = (pools: SearchPools) =>
  Promise.all([pools.plain.end().catch(() => undefined), pools.prepared.end().catch(() => undefined)]);

/** Whether the pools' server is the embedded Postgres (PGlite): asked once per pool. */
const isEmbedded = (current: SearchPools) => {
  current.embedded ??= current.plain
    .query<{ version: string }>("SELECT version()")
    .then((r) => /PGlite/i.test(r.rows[0]?.version ?? ""))
    .catch((error: unknown) => {
      current.embedded = undefined; // asked again by the next search
      throw error;
    });
  return current.embedded;
};

/**
 * The query for a search statement: named after a hash of its text when prepared, so each distinct statement shape
 * (search mode, scope, embedding index) is prepared once per connection and a name never stands for two texts.
 */
export const searchQuery = (sql: Prisma.Sql, prepared: boolean): pg.QueryConfig => ({
  ...(prepared ? { name: `quarry_search_${createHash("sha256").update(sql.text).digest("hex").slice(0, 24)}` } : {}),
  text: sql.text,
  values: sql.values as unknown[],
});

export const runSearch = async <T extends pg.QueryResultRow>(
  sql: Prisma.Sql,
  { prepare = false }: { prepare?: boolean } = {},
): Promise<T[]> => {
  const current = searchPools();
  const prepared = prepare && !(await isEmbedded(current));
  return (await (prepared ? current.prepared : current.plain).query<T>(searchQuery(sql, prepared))).rows;
};

export const closeSearchPool = async () => {
  const current = globalForPool.quarrySearchPool;
  globalForPool.quarrySearchPool = undefined;
  if (current) await Promise.all([current.plain.end(), current.prepared.end()]);
};
