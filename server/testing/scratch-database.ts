import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * The tests' real-Postgres mode: when QUARRY_TEST_POSTGRES_URL names a server (an admin URL, as scripts/real-postgres.ts
 * starts one), each suite gets a fresh database of its own on it instead of an embedded Postgres, so suites running
 * side by side share a server and nothing else. Migrations stay the caller's (the app's own migrate path).
 */

export const realPostgresUrl = (): string | undefined => process.env.QUARRY_TEST_POSTGRES_URL || undefined;

export type ScratchDatabase = { url: string; drop: () => Promise<void> };

const withClient = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/** A new uniquely named database with pgvector on the admin URL's server; `drop` removes it, closing what is left open. */
export const createScratchDatabase = async (adminUrl: string): Promise<ScratchDatabase> => {
  const name = `quarry_test_${randomBytes(6).toString("hex")}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await withClient(url.href, (client) => client.query("CREATE EXTENSION IF NOT EXISTS vector"));
  return {
    url: url.href,
    // WITH (FORCE): a killed app can leave sessions behind; the database goes regardless.
    drop: () => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(),
  };
};

/**
 * The keyword engine a suite's database offers: BM25 on the embedded Postgres; on the real-Postgres run (Debian's
 * Postgres 15, where pg_textsearch cannot be installed: it needs 17) the documented ts_rank full-text fallback.
 */
export const expectedKeywordEngine = (): "bm25" | "fulltext" => (realPostgresUrl() ? "fulltext" : "bm25");
