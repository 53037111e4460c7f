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

const HNSW_OPTIONS = "-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search=100";
const MAX_CONNECTIONS = 8;

const globalForPool = globalThis as unknown as { quarrySearchPool?: { url: string; pool: pg.Pool } };

const pool = (): pg.Pool => {
  const url = env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set");
  const current = globalForPool.quarrySearchPool;
  if (current?.url === url) return current.pool;
  void current?.pool.end().catch(() => undefined);
  const created = new pg.Pool({ connectionString: url, max: MAX_CONNECTIONS, options: HNSW_OPTIONS });
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
