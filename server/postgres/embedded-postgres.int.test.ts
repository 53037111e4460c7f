import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import {
  DataDirLockedError,
  type EmbeddedPostgres,
  lockPath,
  readDataDirLock,
  startEmbeddedPostgres,
} from "./embedded-postgres";

const repoRoot = path.resolve(import.meta.dirname, "../..");

describe("embedded Postgres with the pglite-socket queue patch", () => {
  let server: EmbeddedPostgres;
  let pool: pg.Pool;
  // Unpatched, idle clients receive other connections' errors ('portal "" does not exist'); record, don't crash.
  const poolErrors: Error[] = [];

  beforeAll(async () => {
    server = await startEmbeddedPostgres({ port: 0 });
    pool = new pg.Pool({ connectionString: server.url, max: 10 });
    pool.on("error", (error) => poolErrors.push(error));
  });

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  it("answers 1000 concurrent queries, a quarter of them in transactions, each with its own result", async () => {
    const inTransaction = async (n: number) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const first = await client.query<{ n: number }>("SELECT $1::int AS n", [n]);
        const second = await client.query<{ n: number }>("SELECT $1::int + 0 AS n", [first.rows[0]?.n]);
        await client.query("COMMIT");
        return second.rows[0]?.n;
      } finally {
        client.release();
      }
    };
    const single = async (n: number) => (await pool.query<{ n: number }>("SELECT $1::int AS n", [n])).rows[0]?.n;

    const sent = Array.from({ length: 1000 }, (_, n) => n);
    const results = await Promise.allSettled(sent.map((n) => (n % 4 === 0 ? inTransaction(n) : single(n))));

    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(poolErrors).toEqual([]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : undefined))).toEqual(sent);
  });

  it("has pgvector", async () => {
    const { rows } = await pool.query<{ d: number }>("SELECT '[1,2,3]'::vector <=> '[1,2,4]'::vector AS d");
    expect(rows[0]?.d).toBeGreaterThan(0);
    expect(rows[0]?.d).toBeLessThan(0.05);
  });

  it("reports the port it picked for port 0", () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toMatch(
      new RegExp(`^postgresql://postgres:[\\w-]{20,}@127\\.0\\.0\\.1:${server.port}/postgres$`),
    );
  });
});

describe("data directory lock", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-embedded-test-"));
  const dataDir = path.join(tmp, "data");
  const children: ChildProcess[] = [];

  // A separate process that opens the data dir, writes a row, says READY <port>, and stays up until killed.
  const holderScript = path.join(tmp, "holder.mts");
  writeFileSync(
    holderScript,
    `import pg from ${JSON.stringify(createRequire(import.meta.url).resolve("pg"))};
import { startEmbeddedPostgres } from ${JSON.stringify(path.join(repoRoot, "server/postgres/embedded-postgres.ts"))};
try {
  const server = await startEmbeddedPostgres({ dataDir: process.argv[2], port: 0 });
  const client = new pg.Client(server.url);
  await client.connect();
  await client.query("CREATE TABLE IF NOT EXISTS notes (body text)");
  await client.query("INSERT INTO notes VALUES ('written before kill -9')");
  await client.end();
  process.stdout.write("READY " + server.port + "\\n");
  setInterval(() => undefined, 1000);
} catch (error) {
  process.stderr.write(String(error instanceof Error ? error.message : error) + "\\n");
  process.exit(3);
}
`,
  );

  const startHolder = () => {
    const child = spawn(process.execPath, ["--import", "tsx", holderScript, dataDir], {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const ready = new Promise<number>((resolve, reject) => {
      child.stdout?.on("data", () => {
        const port = /READY (\d+)/.exec(stdout)?.[1];
        if (port) resolve(Number(port));
      });
      child.on("exit", (code) => reject(new Error(`holder exited with ${code}: ${stderr}`)));
    });
    ready.catch(() => undefined); // awaited only when the holder is expected to start
    const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
      child.on("exit", (code) => resolve({ code, stderr })),
    );
    return { child, ready, exited };
  };

  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(tmp, { recursive: true, force: true });
  });

  it("refuses a second process while the first runs, and takes over the lock after the first is killed", async () => {
    const first = startHolder();
    const port = await first.ready;
    expect(readDataDirLock(dataDir)).toEqual({ pid: first.child.pid, port });

    // Second process: refused with a message that names the holder and the directory.
    const second = startHolder();
    const { code, stderr } = await second.exited;
    expect(code).toBe(3);
    expect(stderr).toContain(`pid ${first.child.pid}`);
    expect(stderr).toContain(dataDir);

    // Same in-process, as a typed error.
    const error = await startEmbeddedPostgres({ dataDir, port: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as DataDirLockedError).pid).toBe(first.child.pid);

    // A CLI finds the running server through the lock instead of opening the directory itself.
    const savedUrl = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    setRuntimeEnv("QUARRY_DATA_DIR", dataDir);
    try {
      const { connectDatabase } = await import("./connect");
      const connection = await connectDatabase();
      // As an outside client: with the data dir's password.
      const password = readFileSync(path.join(dataDir, "db-password"), "utf8").trim();
      expect(connection).toMatchObject({
        url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
        embedded: true,
      });
      const client = new pg.Client(connection.url);
      await client.connect();
      expect((await client.query("SELECT count(*)::int AS n FROM notes")).rows[0]?.n).toBe(1);
      await client.end();
    } finally {
      if (savedUrl !== undefined) setRuntimeEnv("DATABASE_URL", savedUrl);
    }

    first.child.kill("SIGKILL");
    await first.exited;
    expect(existsSync(lockPath(dataDir))).toBe(true); // left behind by kill -9
    expect(readDataDirLock(dataDir)).toBeUndefined(); // ...and recognised as stale

    const reopened = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      expect(readDataDirLock(dataDir)).toEqual({ pid: process.pid, port: reopened.port });
      const client = new pg.Client(reopened.url);
      await client.connect();
      expect((await client.query("SELECT body FROM notes")).rows).toEqual([{ body: "written before kill -9" }]);
      await client.end();
    } finally {
      await reopened.stop();
    }
    expect(existsSync(lockPath(dataDir))).toBe(false);
  });

  it("keeps data across a graceful stop and reopen", async () => {
    const first = await startEmbeddedPostgres({ dataDir, port: 0 });
    const client = new pg.Client(first.url);
    await client.connect();
    await client.query("CREATE TABLE kept (v vector(3))");
    await client.query("INSERT INTO kept VALUES ('[1,2,3]')");
    await client.end();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      const again = new pg.Client(second.url);
      await again.connect();
      const { rows } = await again.query<{ d: number }>("SELECT v <=> '[1,2,3]'::vector AS d FROM kept");
      expect(rows).toEqual([{ d: 0 }]);
      await again.end();
    } finally {
      await second.stop();
    }
  });
});
