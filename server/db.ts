import { PrismaPg } from "@prisma/adapter-pg";
import { clearLogs } from "@prisma/debug";
import pg from "pg";
import { env } from "@/server/env";
import { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";

/**
 * The Prisma client, created on first use. DATABASE_URL must be set by then: the launcher (or a CLI) calls
 * connectDatabase() and setRuntimeEnv("DATABASE_URL", url) first, because the embedded database's port is only
 * known at run time. Importing this module needs no database (`next build` imports every route).
 *
 * With the embedded Postgres every connection shares one backend session, so never pass PrismaPg a
 * `statementNameGenerator` (named prepared statements collide across connections) and keep interactive
 * transactions short (they block every other connection until they end).
 */

const LAST_ANSWER = Symbol.for("quarry.lastDatabaseAnswerAt");
type WithLastAnswer = typeof globalThis & { [LAST_ANSWER]?: number };

/**
 * When a connection of this process last came back from the database (a query or transaction done; 0 before any):
 * a database that is busy with a build's writes still answers every few hundred milliseconds, one that is down or
 * stuck does not (server/health.ts).
 */
export const lastDatabaseAnswerAt = () => (globalThis as WithLastAnswer)[LAST_ANSWER] ?? 0;

const createClient = () => {
  const connectionString = env.DATABASE_URL;
  if (!connectionString) {
    throw new Error(
      "DATABASE_URL is not set. Start Quarry through its launcher, which starts the embedded database, " +
        "or set DATABASE_URL to a Postgres with pgvector.",
    );
  }
  const pool = new pg.Pool({ connectionString, max: 8 });
  // Prisma's driver adapter keeps its last 100 debug calls in memory, logging enabled or not, and each holds a
  // query with all its parameters: 100 inserts of a large document's elements held hundreds of MB for no reader.
  // The history only feeds Prisma's crash reports; it is dropped after every query.
  pool.on("release", () => {
    clearLogs();
    (globalThis as WithLastAnswer)[LAST_ANSWER] = Date.now();
  });
  const adapter = new PrismaPg(pool, {
    // $disconnect() ends the pool; the client re-creates one from the same options if it is used again.
    disposeExternalPool: true,
    onPoolError: (err) => logger.warn({ err }, "idle database connection failed"),
  });
  const client = new PrismaClient({
    adapter,
    // Token hashes and sealed provider keys leave the database only where a query asks for them explicitly.
    omit: { apiToken: { hashedToken: true }, modelProvider: { encryptedKey: true } },
    // As events, so they go through pino instead of Prisma's own console output.
    log: [
      { emit: "event", level: "warn" },
      { emit: "event", level: "error" },
    ],
  });
  client.$on("warn", (e) => logger.warn({ target: e.target }, e.message));
  client.$on("error", (e) => logger.error({ target: e.target }, e.message));
  return client;
};

export type Db = ReturnType<typeof createClient>;

/**
 * One client (and one pool) per process, on globalThis: Next's production build holds a copy of this module in each
 * server bundle (routes, pages, instrumentation) and its dev server re-evaluates modules on every change. With a client
 * per copy, the stop's disconnectDb() closed only its own copy's pool, and the database's shutdown then cut the others'
 * idle connections (a warning each).
 */
const globalForDb = globalThis as unknown as { quarryDb?: Db };

const getClient = (): Db => (globalForDb.quarryDb ??= createClient());

export const db: Db = new Proxy({} as Db, {
  get: (_target, prop) => {
    const target = getClient();
    const value: unknown = Reflect.get(target, prop, target);
    return typeof value === "function" ? value.bind(target) : value;
  },
});

export const disconnectDb = async (): Promise<void> => {
  await globalForDb.quarryDb?.$disconnect();
};
