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
 * No prepared statements: pg_textsearch serves a BM25 score from its index scan only when the planner can fold the
 * query to a constant, which a generic plan of a prepared statement would not do.
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
/** The search connections' startup options (also the query-cost bench's raw SQL connections). */
export const searchConnectionOptions = () =>
  Object.entries(searchSettings())
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
const MAX_CONNECTIONS = 8;

const globalForPool = globalThis as unknown as { quarrySearchPool?: { url: string; pool: pg.Pool } };

const pool = (): pg.Pool => {
  const url = env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForPool.quarrySearchPool;
  if (current?.url === url) return current.pool;
  void current?.pool.end().catch(() => undefined);
  const created = new pg.Pool({ connectionString: url, max: MAX_CONNECTIONS, options: searchConnectionOptions() });
  created.on("error", (err) => logger.warn({ err }, "idle search connection failed"));
  globalForPool.quarrySearchPool = { url, pool: created };
  return created;
};

export const runSearch = async <T extends pg.QueryResultRow>(sql: Prisma.Sql): Promise<T[]> =>
  (await pool().query<T>(sql.text, sql.values as unknown[])).rows;

export const closeSearchPool = async () => {
  const current = globalForPool.quarrySearchPool;
  globalForPool.quarrySearchPool = undefined;
  await current?.pool.end();
};
