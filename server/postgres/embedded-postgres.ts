import { PGlite } from "@electric-sql/pglite";
import { pg_textsearch } from "@electric-sql/pglite-pg_textsearch";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, openAsBlob, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { logger } from "@/server/logger";
import { guardPgliteSocketServer } from "./pglite-guard";
import { patchPgliteSocketServer } from "./pglite-socket-patch";

/**
 * Quarry's embedded Postgres: PGlite (Postgres compiled to wasm) with pgvector, served over TCP on loopback by
 * pglite-socket, so the app's pg pool, the job runner, CLIs and psql all reach it like a normal server.
 *
 * Two things PGlite does not do for us:
 * - It does not lock its data directory. Two processes on one directory silently lose each other's writes, so a pid
 *   lock file guards it. The lock also records the port, which lets a CLI find the running server.
 * - All socket connections share ONE backend session: transactions are serialized across connections, and session
 *   state (SET, temp tables, advisory locks, named prepared statements) is shared. Keep transactions short.
 *   pglite-guard.ts requires a password and keeps outside clients' session state away from Quarry's queries.
 */

export type EmbeddedPostgres = {
  url: string;
  port: number;
  stop: () => Promise<void>;
};

export type DataDirLock = { pid: number; port: number | null };

export class DataDirLockedError extends Error {
  readonly pid: number;
  readonly dataDir: string;

  constructor({ pid, dataDir }: { pid: number; dataDir: string }) {
    super(
      `The data directory ${dataDir} is in use by another Quarry process (pid ${pid}). ` +
        `Stop that process first. If no such process is running, delete ${lockPath(dataDir)}.`,
    );
    this.name = "DataDirLockedError";
    this.pid = pid;
    this.dataDir = dataDir;
  }
}

/** Sized above the sum of every pool that shares the server; one more connection is refused with a bare reset. */
const MAX_CONNECTIONS = 64;

export const lockPath = (dataDir: string) => path.join(dataDir, "pgdata.lock");

export const embeddedUrl = ({
  port,
  password,
  host = "127.0.0.1",
}: {
  port: number;
  password: string;
  host?: string;
}) => `postgresql://postgres:${encodeURIComponent(password)}@${host}:${port}/postgres`;

/** Where the password for people and tools (psql, pg_dump, the CLI) is kept: readable by Quarry's user only. */
export const passwordPath = (dataDir: string) => path.join(dataDir, "db-password");

const newPassword = () => randomBytes(24).toString("base64url");

/** The data dir's password for outside clients, created on first use. */
export const outsidePassword = (dataDir: string): string => {
  const file = passwordPath(dataDir);
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing) return existing;
  } catch {
    // not created yet
  }
  const password = newPassword();
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
};

/** An outside client that holds a transaction open this long while others wait is disconnected. */
const OUTSIDE_IDLE_IN_TRANSACTION_MS = 3000;

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else. It still holds the directory.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

const parseLock = (text: string): DataDirLock | undefined => {
  try {
    const value = JSON.parse(text) as Partial<DataDirLock>;
    if (typeof value.pid !== "number" || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
    return { pid: value.pid, port: typeof value.port === "number" && value.port > 0 ? value.port : null };
  } catch {
    return undefined;
  }
};

/** The lock of a live process, or undefined when the directory is free (no lock, unreadable lock, or dead owner). */
export const readDataDirLock = (dataDir: string): DataDirLock | undefined => {
  let text: string;
  try {
    text = readFileSync(lockPath(dataDir), "utf8");
  } catch {
    return undefined;
  }
  const lock = parseLock(text);
  return lock && isAlive(lock.pid) ? lock : undefined;
};

const writeLock = (dataDir: string, lock: DataDirLock, flag: "wx" | "w") =>
  writeFileSync(lockPath(dataDir), JSON.stringify(lock), { flag });

/**
 * Take the lock or throw DataDirLockedError. A lock left by a dead process (kill -9, crash) is taken over.
 * Not race-free against two processes taking over the same stale lock in the same millisecond; good enough for
 * one Quarry per data directory.
 */
const acquireLock = (dataDir: string): void => {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeLock(dataDir, { pid: process.pid, port: null }, "wx");
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readDataDirLock(dataDir);
    if (holder) throw new DataDirLockedError({ pid: holder.pid, dataDir });
    logger.warn({ dataDir }, "taking over a stale embedded Postgres lock");
    rmSync(lockPath(dataDir), { force: true });
  }
  throw new Error(`Could not take the lock ${lockPath(dataDir)}`);
};

export const releaseDataDirLock = (dataDir: string): void => releaseLock(dataDir);

const releaseLock = (dataDir: string): void => {
  try {
    if (parseLock(readFileSync(lockPath(dataDir), "utf8"))?.pid === process.pid) rmSync(lockPath(dataDir));
  } catch {
    // Already gone.
  }
};

/**
 * initdb is most of a first start (3-6 s on two cores). A dump of a freshly initialized cluster loads in under a
 * second, so the first initdb saves one per PGlite version, and later fresh databases (first start of a data dir,
 * every in-memory test or shadow database) start from it. It lives in node_modules/.cache (like other tools'
 * caches): private to the installation, unlike a world-writable temp dir where anyone could plant a cluster.
 * Any problem with the template falls back to a plain initdb.
 */
const templatePath = (): string | undefined => {
  try {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite"); // <node_modules>/@electric-sql/pglite/dist/index.cjs
    const packageDir = path.resolve(path.dirname(entry), "..");
    const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version?: string };
    if (!version) return undefined;
    const cacheDir = path.resolve(packageDir, "..", "..", ".cache", "quarry");
    mkdirSync(cacheDir, { recursive: true });
    return path.join(cacheDir, `pglite-${version}-template.tar`);
  } catch {
    return undefined;
  }
};

const saveTemplate = async (pg: PGlite, file: string) => {
  try {
    const dump = await pg.dumpDataDir("none");
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file); // atomic: concurrent first starts never read a half-written template
  } catch (error) {
    logger.debug({ err: error }, "could not save the PGlite template");
  }
};

/**
 * postgresql.conf of the embedded server. PGlite writes it on every start once an extension is preloaded
 * (pg_textsearch must be), replacing initdb's file, so initdb's settings that matter are repeated here. The HNSW
 * settings live here, not in a session SET, so no client resetting the shared session can undo them: filtered vector
 * searches keep scanning until enough rows pass the filter (pgvector's iterative scan).
 */
const efSearch = () => {
  // QUARRY_HNSW_EF_SEARCH (server/env.ts; read here directly: this module runs in the database's own thread).
  const n = Number(process.env.QUARRY_HNSW_EF_SEARCH || 400);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 400;
};

const postgresqlConf = () => [
  "timezone = 'UTC'",
  "default_text_search_config = 'pg_catalog.english'",
  "hnsw.iterative_scan = relaxed_order",
  `hnsw.ef_search = ${efSearch()}`,
  // Pages come from memory: at the default 4 the planner may cost an HNSW scan above sorting every vector (as the
  // search pool's connections do on a real Postgres, server/retrieval/search-pool.ts).
  "random_page_cost = 1.1",
  // The buffer cache lives in the wasm memory, which grows and never shrinks: at the default 128MB it was filled by
  // one large ingest and stayed resident for good. Pages it misses come from the OS page cache (one copy each);
  // the retrieval tests took the same CPU time with 16MB as with 128MB. Peak RSS of a 20 MB CSV ingest: -70 MB.
  "shared_buffers = 16MB",
];

const createPglite = async (pgdata: string | undefined): Promise<PGlite> => {
  // pg_textsearch: BM25 keyword search (server/retrieval/keyword-engine.ts).
  const extensions = { vector, pg_textsearch };
  const postgresqlconf = postgresqlConf();
  const fresh = !pgdata || !existsSync(path.join(pgdata, "PG_VERSION"));
  const template = fresh ? templatePath() : undefined;
  if (template && existsSync(template)) {
    try {
      // Backed by the file: PGlite keeps the Blob, and a Blob of the bytes stayed resident (38 MB) for good.
      const loadDataDir = await openAsBlob(template);
      return await PGlite.create({ dataDir: pgdata, extensions, loadDataDir, postgresqlconf });
    } catch (error) {
      logger.warn({ err: error, template }, "PGlite template unusable; running initdb");
      rmSync(template, { force: true });
      if (pgdata) rmSync(pgdata, { recursive: true, force: true }); // it was fresh: nothing of value is lost
    }
  }
  const pg = await PGlite.create({ dataDir: pgdata, extensions, postgresqlconf });
  if (template) await saveTemplate(pg, template);
  return pg;
};

/**
 * One full garbage collection, now. Loading the template (or initdb and saving one) leaves copies of the 40 MB
 * cluster behind as garbage outside the JS heap, and the database thread's small heap rarely fills enough to collect
 * it: they stayed resident for good (idle app on a fresh data dir: -65 MB). (The way jest-leak-detector reaches `gc`.)
 */
const collectGarbage = () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  v8.setFlagsFromString("--no-expose-gc");
  gc();
};

const listen = async (server: PGLiteSocketServer): Promise<number> => {
  let port: number | undefined;
  // With port 0 the OS picks the port; the server reports it in its "listening" event.
  server.addEventListener("listening", (event) => {
    port = (event as CustomEvent<{ port?: number }>).detail.port;
  });
  await server.start();
  if (!port) throw new Error("The embedded Postgres socket server did not report its port");
  return port;
};

/**
 * Start PGlite + pgvector and serve it on `host:port`.
 * `dataDir` undefined keeps the database in memory (tests, shadow databases); otherwise the files live in
 * `<dataDir>/pgdata` behind `<dataDir>/pgdata.lock`. The first start runs initdb (a few seconds); later starts
 * take well under a second.
 */
export const startEmbeddedPostgres = async ({
  dataDir,
  port = 0,
  host = "127.0.0.1",
  password,
}: {
  dataDir?: string;
  port?: number;
  host?: string;
  /** For outside clients; default: the data dir's `db-password` file (a random one for an in-memory database). */
  password?: string;
} = {}): Promise<EmbeddedPostgres> => {
  const dir = dataDir === undefined ? undefined : path.resolve(dataDir);
  const startedAt = performance.now();
  if (dir) {
    mkdirSync(dir, { recursive: true });
    acquireLock(dir);
  }
  const onExit = () => dir && releaseLock(dir);
  process.on("exit", onExit);

  let pg: PGlite | undefined;
  try {
    pg = await createPglite(dir ? path.join(dir, "pgdata") : undefined);
    await pg.exec("CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_textsearch");
    collectGarbage();

    const server = new PGLiteSocketServer({ db: pg, port, host, maxConnections: MAX_CONNECTIONS });
    patchPgliteSocketServer(server);
    // Quarry's own connections use a password that lives only in this process (and its children's environment).
    const internalPassword = newPassword();
    guardPgliteSocketServer(server, {
      internalPassword,
      outsidePassword: password ?? (dir ? outsidePassword(dir) : newPassword()),
      idleInTransactionMs: OUTSIDE_IDLE_IN_TRANSACTION_MS,
    });
    const actualPort = await listen(server);
    if (dir) writeLock(dir, { pid: process.pid, port: actualPort }, "w");
    logger.info(
      { dataDir: dir ?? "(memory)", port: actualPort, ms: Math.round(performance.now() - startedAt) },
      "embedded Postgres started",
    );

    const db = pg;
    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        try {
          await server.stop();
          await db.close();
        } finally {
          process.off("exit", onExit);
          onExit();
        }
      })());
    return { url: embeddedUrl({ port: actualPort, host, password: internalPassword }), port: actualPort, stop };
  } catch (error) {
    await pg?.close().catch(() => undefined);
    process.off("exit", onExit);
    onExit();
    throw error;
  }
};
