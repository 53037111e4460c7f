import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureNextBuild } from "../startup/next-build";
import { createScratchDatabase, realPostgresUrl, type ScratchDatabase } from "./scratch-database";

/**
 * Runs the real app (`npm start`: embedded Postgres, migrations, Next, the in-process job runner) as a child
 * process on a fresh data directory and a free port, for integration tests over real HTTP. With
 * QUARRY_TEST_POSTGRES_URL set (and no DATABASE_URL of the test's own), the app gets a fresh database on that real
 * server instead of its embedded one, migrated by the app's own start and dropped at `dispose`.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export const newToken = () => {
  const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return `qry_${[...randomBytes(40)].map((b) => chars[b % 62]).join("")}`;
};

export type QuarryProcess = {
  url: string;
  token: string;
  dataDir: string;
  /** The app's DATABASE_URL when it runs on an outside Postgres (the real-Postgres mode); unset when embedded. */
  databaseUrl?: string;
  output: () => string;
  /** Process id of the running app (its parse workers and tools are its descendants). */
  pid: () => number | undefined;
  /** Starts the app again on the same data dir and port (after a kill), optionally with other variables. */
  restart: (env?: Record<string, string>) => Promise<void>;
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  /** Stops the app and removes its data dir. */
  dispose: () => Promise<void>;
};

export const startQuarry = async ({
  env = {},
  startTimeoutMs = 240_000,
}: { env?: Record<string, string>; startTimeoutMs?: number } = {}): Promise<QuarryProcess> => {
  ensureNextBuild(ROOT);
  const dataDir = mkdtempSync(path.join(tmpdir(), "quarry-test-"));
  const port = await freePort();
  const token = newToken();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let log = "";

  const real = realPostgresUrl();
  const scratch: ScratchDatabase | null = real && !env.DATABASE_URL ? await createScratchDatabase(real) : null;
  let launchEnv = scratch ? { DATABASE_URL: scratch.url, ...env } : env;
  const launch = async (overrides: Record<string, string> = {}) => {
    launchEnv = { ...launchEnv, ...overrides };
    log += `\n--- start ---\n`;
    // What `npm start` runs, with its memory settings (package.json), so that the memory bench measures what it runs;
    // node itself, not npm (which relays signals to a child of its own: a SIGKILL would leave the app running).
    // QUARRY_TEST_SEMI_SPACE_MB: another young generation for a bench that compares them (bench/querycost.ts, memory).
    // QUARRY_TEST_NODE_FLAGS: more flags for the app's node, e.g. `--cpu-prof --cpu-prof-dir=<dir>` (NODE_OPTIONS
    // refuses --cpu-prof, and would reach the build child too); the profile is written when the app exits.
    const semiSpace = process.env.QUARRY_TEST_SEMI_SPACE_MB ?? "8";
    const flags = (process.env.QUARRY_TEST_NODE_FLAGS ?? "").split(" ").filter(Boolean);
    child = spawn(process.execPath, [`--max-semi-space-size=${semiSpace}`, ...flags, "scripts/start.mjs"], {
      cwd: ROOT,
      env: {
        ...process.env,
        MALLOC_ARENA_MAX: "2",
        MALLOC_MMAP_THRESHOLD_: "131072",
        NODE_ENV: "production",
        PORT: String(port),
        QUARRY_DATA_DIR: dataDir,
        QUARRY_INIT_TOKEN: token,
        LOG_LEVEL: process.env.QUARRY_TEST_LOG_LEVEL ?? "warn",
        ...launchEnv,
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so a kill reaches the parse workers it started too, as a real crash would.
      detached: true,
    });
    child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    const deadline = Date.now() + startTimeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`Quarry exited with ${child.exitCode} during start:\n${log}`);
      const ok = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`Quarry did not become healthy in ${startTimeoutMs} ms:\n${log}`);
  };

  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    try {
      process.kill(-proc.pid!, signal);
    } catch {
      proc.kill(signal);
    }
    await exited;
  };

  await launch().catch(async (error: unknown) => {
    await scratch?.drop();
    throw error;
  });
  return {
    url,
    token,
    dataDir,
    databaseUrl: launchEnv.DATABASE_URL,
    output: () => log,
    pid: () => child?.pid,
    restart: launch,
    kill,
    dispose: async () => {
      await kill("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    },
  };
};

/**
 * A URL of the app's own database for a test to read it as an outside client: its DATABASE_URL on an outside
 * Postgres, else the embedded server found through the data dir's lock and password.
 */
export const appDatabaseUrl = (quarry: Pick<QuarryProcess, "dataDir" | "databaseUrl">) => {
  if (quarry.databaseUrl) return quarry.databaseUrl;
  const { port } = JSON.parse(readFileSync(path.join(quarry.dataDir, "pgdata.lock"), "utf8")) as { port: number };
  const password = readFileSync(path.join(quarry.dataDir, "db-password"), "utf8").trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
};

/** fetch against the app with the test token. */
export const apiClient = (quarry: Pick<QuarryProcess, "url" | "token">, token: string = quarry.token) => {
  const base = `${quarry.url}/api/public/v1/sources`;
  const auth = { Authorization: `Bearer ${token}` };
  return {
    base,
    get: (p: string) => fetch(`${base}${p}`, { headers: auth }),
    post: (p: string, body: unknown) =>
      fetch(`${base}${p}`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
    del: (body: unknown) =>
      fetch(`${base}/delete`, {
        method: "DELETE",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
    upload: (fileName: string, content: Buffer | string, fields: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set(
        "file",
        new Blob([typeof content === "string" ? Buffer.from(content) : new Uint8Array(content)]),
        fileName,
      );
      return fetch(`${base}/ingest-file`, { method: "POST", headers: auth, body: form });
    },
    /** Polls a build until it leaves Pending/Processing. */
    waitForBuild: async (buildId: string, timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await fetch(`${base}/builds/${buildId}?suppress_elements=true`, { headers: auth });
        const body = (await res.json()) as { status: string; error: string | null };
        if (!["Pending", "Processing", "not_found"].includes(body.status)) return body;
        if (Date.now() > deadline) throw new Error(`build ${buildId} still ${body.status}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    },
  };
};

/**
 * The admin CLI (`npm run quarry -- ...`) against a running app's data dir; it finds the app's embedded database
 * itself, and is handed the app's DATABASE_URL when it has one.
 */
export const quarryCli = (quarry: Pick<QuarryProcess, "dataDir" | "databaseUrl">, ...args: string[]) =>
  execFileSync(process.execPath, [path.resolve(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/quarry.ts", ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      QUARRY_DATA_DIR: quarry.dataDir,
      LOG_LEVEL: "warn",
      ...(quarry.databaseUrl ? { DATABASE_URL: quarry.databaseUrl } : {}),
    },
    encoding: "utf8",
  }).trim();

/** A new API token of `project` (created when new), with all permissions unless told otherwise. */
export const createToken = (
  quarry: Pick<QuarryProcess, "dataDir" | "databaseUrl">,
  project: string,
  permissions?: string,
) => quarryCli(quarry, "token", "create", "--project", project, ...(permissions ? ["--permissions", permissions] : []));
