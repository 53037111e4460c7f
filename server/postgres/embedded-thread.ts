import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { bundleOf } from "../startup/bundle";
import { DataDirLockedError, releaseDataDirLock, type EmbeddedPostgres } from "./embedded-postgres";

/**
 * The app's embedded Postgres runs in a worker thread of its own. PGlite executes every statement synchronously
 * (Postgres compiled to wasm), so on the thread that serves HTTP a large insert or update froze health checks and
 * API calls for as long as it ran. In its own thread it only holds the database queue, and on two cores it runs
 * beside the app instead of taking turns with it. Same server, same lock, same URL as startEmbeddedPostgres.
 */

const bootstrap = (tsxApi: string | null, module: string) => `
import { parentPort, workerData } from "node:worker_threads";
${tsxApi ? `const { register } = await import(${JSON.stringify(tsxApi)});\nregister();` : ""}
const { startEmbeddedPostgres, DataDirLockedError } = await import(${JSON.stringify(module)});
try {
  const server = await startEmbeddedPostgres(workerData);
  parentPort.on("message", async (message) => {
    if (message !== "stop") return;
    await server.stop().catch(() => undefined);
    parentPort.postMessage({ stopped: true });
  });
  parentPort.postMessage({ url: server.url, port: server.port });
} catch (error) {
  const locked = error instanceof DataDirLockedError ? { pid: error.pid, dataDir: error.dataDir } : null;
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error), locked });
}
`;

/** Under `npm start` the thread runs the bundled module (bundle.ts); otherwise the source, through tsx. */
const threadBootstrap = () => {
  const bundle = bundleOf("server/postgres/embedded-postgres.ts");
  if (bundle) return bootstrap(null, pathToFileURL(bundle).href);
  const root = process.cwd();
  const tsxApi = path.join(/*turbopackIgnore: true*/ root, "node_modules/tsx/dist/esm/api/index.mjs");
  const entry = path.join(/*turbopackIgnore: true*/ root, "server/postgres/embedded-postgres.ts");
  if (!existsSync(/*turbopackIgnore: true*/ tsxApi) || !existsSync(/*turbopackIgnore: true*/ entry)) {
    throw new Error("The embedded Postgres thread needs tsx and the server sources of this installation");
  }
  return bootstrap(pathToFileURL(tsxApi).href, pathToFileURL(entry).href);
};

type Started = { url: string; port: number } | { error: string; locked: { pid: number; dataDir: string } | null };

export const startEmbeddedPostgresThread = async (options: {
  dataDir: string;
  port?: number;
  password?: string;
}): Promise<EmbeddedPostgres> => {
  const worker = new Worker(threadBootstrap(), {
    eval: true,
    workerData: options,
  });
  const started = await new Promise<Started>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`The embedded Postgres thread exited during start (${code})`)));
  });
  if ("error" in started) {
    await worker.terminate();
    if (started.locked) throw new DataDirLockedError(started.locked);
    throw new Error(started.error);
  }
  // The thread cannot run exit handlers when the process ends abruptly (process.exit): release the lock from here.
  const dataDir = path.resolve(options.dataDir);
  const onExit = () => releaseDataDirLock(dataDir);
  process.on("exit", onExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const stopped = new Promise((resolve) => {
        worker.once("message", resolve);
        worker.once("exit", resolve);
      });
      worker.postMessage("stop");
      await stopped;
      await worker.terminate();
      process.off("exit", onExit);
      onExit();
    })());
  return { url: started.url, port: started.port, stop };
};
