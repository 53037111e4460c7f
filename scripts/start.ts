/**
 * `npm start` (scripts/start.mjs runs this file's bundle): Quarry in one process. Embedded Postgres (unless
 * DATABASE_URL is set), migrations, first-start bootstrap, the Next.js server, and the in-process job runner (unless
 * an Inngest server is configured). Stops cleanly on SIGINT/SIGTERM; after a kill -9 the next start resumes every
 * build.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import v8 from "node:v8";

// V8 lets a busy heap grow to several times what is alive before it collects (up to 4x): while a large document's
// elements stream through, the app's 200 MB of live heap became 800 MB of heap. 1.5x keeps that in bounds; V8 reads
// the factor at every collection, so it applies from here on.
v8.setFlagsFromString("--heap-growing-percent=50");
// The launchers (package.json `start`, the Dockerfile) also set MALLOC_ARENA_MAX=2 (fewer malloc arenas for the
// app's threads) and MALLOC_MMAP_THRESHOLD_=131072, so that large buffers (file chunks, element batches) stay out of
// the malloc arenas, which kept their pages after a big document (parse worker peak on a 20 MB CSV: 184 -> 130 MB);
// parse workers inherit both variables. They start node with --max-semi-space-size=8, the main thread's young
// generation: at 4 MB, scavenges took a sixth of its CPU under API load (20 clients of prebuilt-rag on a real
// Postgres, two runs each: 5.5 / 5.4 -> 5.0 / 4.8 ms of the app's CPU per query at 8, 136 / 138 -> 150 / 155 q/s).
// 16 MB saved a little more (4.5 ms) but the app stayed about 100 MB larger after such a load (400 MB resident 15 s
// later against 300); at 8 its memory was 4's. V8 reads the flag when it creates a heap, so the worker threads made
// from here on (embedded database, CPU tasks) get 4 MB, as before.
v8.setFlagsFromString("--max-semi-space-size=4");
// Source-mapped stack traces stay off (as tsx would turn them on when this runs as source): Node would keep the parsed
// source map of every file it loads, and those of Next's server chunks were 80 MB of the idle app's heap.
process.setSourceMapsEnabled(false);

const root = process.cwd(); // the app's root: scripts/start.mjs went there
process.env.NEXT_TELEMETRY_DISABLED = "1";
(process.env as Record<string, string>).NODE_ENV = "production";

const main = async () => {
  const { env, setRuntimeEnv } = await import("../server/env");
  const { logger } = await import("../server/logger");
  const { connectDatabase } = await import("../server/postgres/connect");
  const { applyMigrations } = await import("../server/postgres/migrate");

  const { startMemoryTrim } = await import("../server/startup/memory-trim");
  await startMemoryTrim();

  const { keepFilesPrivate, privateScratchDir } = await import("../server/startup/private-files");
  keepFilesPrivate(env.QUARRY_DATA_DIR);
  privateScratchDir(env.QUARRY_DATA_DIR);

  const port = env.PORT;
  const origin = `http://127.0.0.1:${port}`;
  const { toWebRequest, sendWebResponse, closeAfterUnreadBody, listenOrFail } = await import("../server/startup/http");
  const bridge = await import("../server/startup/launcher-bridge");
  let services: import("../server/startup/launcher-bridge").AppServices | null = null;
  let handle: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;

  const server = createServer((req, res) => {
    // Sign-in rate limits key on the client's address: from the socket, overwriting anything the client sent.
    req.headers["x-quarry-client-ip"] = req.socket.remoteAddress ?? "";
    closeAfterUnreadBody(req, res);
    const events = bridge.localEvents();
    if (events && req.url?.startsWith(`${events.path}/`)) {
      const request = toWebRequest(req, origin);
      const url = new URL(request.url);
      const local = new Request(new URL(url.pathname.slice(events.path.length), origin), request);
      events.handle(local).then((response) => sendWebResponse(res, response));
      return;
    }
    if (!handle) return void sendWebResponse(res, Response.json({ status: "starting" }, { status: 503 }));
    void handle(req, res);
  });
  server.requestTimeout = 0; // uploads of 100 MB on slow links must not be cut off
  // Longer than clients' idle keep-alive, so the server never closes a socket a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Stop cleanly on a signal from here on, also while still starting: the data dir's lock is released on exit.
  let database: Awaited<ReturnType<typeof connectDatabase>> | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    await services?.stopJobs();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await services?.disconnect();
    await database?.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  // The port first: a busy one ends the start here, before a first-start token is made that nobody would see.
  await listenOrFail(server, port, env.HOST);

  // Before the database: a bucket that cannot be used (STORAGE_DRIVER=s3) ends the start here, with the reason.
  await (await import("../server/storage")).checkFileStore();

  database = await connectDatabase();
  setRuntimeEnv("DATABASE_URL", database.url);
  const applied = await applyMigrations({ url: database.url });
  if (applied.length) logger.info({ applied }, "migrations applied");

  const url = `http://${env.HOST === "127.0.0.1" ? "localhost" : env.HOST}:${port}`;
  bridge.setLaunchContext({ origin, url, embeddedDatabase: database.embedded });
  const next = (await import("next")).default;
  const app = next({ dev: false, dir: root, hostname: env.HOST, port });
  await app.prepare();
  handle = app.getRequestHandler();
  // Next prepares its server on the first request, and that runs instrumentation.ts, which readies the services.
  await fetch(`${origin}/api/health`).then((response) => response.body?.cancel());
  const start = bridge.servicesStarter();
  if (!start)
    throw new Error("The app's build has no services hook (instrumentation.ts): rebuild it with npm run build");
  services = await start();
};

main().catch((error: unknown) => {
  process.stderr.write(`Quarry could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.LOG_LEVEL === "debug" && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
