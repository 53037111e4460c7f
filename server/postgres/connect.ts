import { mkdirSync } from "node:fs";
import path from "node:path";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { DataDirLockedError, embeddedUrl, outsidePassword, readDataDirLock } from "./embedded-postgres";
import { startEmbeddedPostgresThread } from "./embedded-thread";

export type DatabaseConnection = {
  url: string;
  /** True when the database is Quarry's embedded Postgres (this process's or another Quarry's). */
  embedded: boolean;
  /** Stops the embedded server if this call started it; a no-op otherwise. */
  stop: () => Promise<void>;
};

const noop = async () => undefined;

/** A process that holds the lock writes its port once it listens; the first start runs initdb first. */
const PORT_WAIT_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** URL of the embedded server another live process runs on this data dir, or undefined when the dir is free. */
const findRunningServer = async (dataDir: string): Promise<string | undefined> => {
  const deadline = Date.now() + PORT_WAIT_MS;
  for (let lock = readDataDirLock(dataDir); lock; lock = readDataDirLock(dataDir)) {
    if (lock.port)
      return embeddedUrl({ port: lock.port, password: env.QUARRY_DB_PASSWORD ?? outsidePassword(dataDir) });
    if (Date.now() > deadline) {
      throw new Error(
        `Quarry (pid ${lock.pid}) holds ${dataDir} but its database did not start listening within ` +
          `${PORT_WAIT_MS / 1000} s. Is it stuck?`,
      );
    }
    await sleep(100);
  }
  return undefined;
};

/**
 * The database for the app launcher and for CLIs, in this order:
 * 1. DATABASE_URL, when set (an external Postgres with pgvector).
 * 2. The embedded server another Quarry process already runs on QUARRY_DATA_DIR (a CLI next to a running app).
 * 3. A new embedded server on QUARRY_DATA_DIR, port QUARRY_DB_PORT (0 = any free port), owned by this process.
 */
export const connectDatabase = async (): Promise<DatabaseConnection> => {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: noop };

  const dataDir = path.resolve(env.QUARRY_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });

  const running = await findRunningServer(dataDir);
  if (running) {
    logger.info({ dataDir, url: running }, "using the embedded Postgres of the running Quarry");
    return { url: running, embedded: true, stop: noop };
  }

  try {
    // In a worker thread: its statements must not stall the thread that serves HTTP (see embedded-thread.ts).
    const server = await startEmbeddedPostgresThread({
      dataDir,
      port: env.QUARRY_DB_PORT,
      password: env.QUARRY_DB_PASSWORD,
    });
    return { url: server.url, embedded: true, stop: server.stop };
  } catch (error) {
    // Another process took the directory between our look and our start: use its server.
    if (!(error instanceof DataDirLockedError)) throw error;
    const url = await findRunningServer(dataDir);
    if (!url) throw error;
    return { url, embedded: true, stop: noop };
  }
};
