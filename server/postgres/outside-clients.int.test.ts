import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textDoc } from "../testing/fixtures";
import { apiClient, createToken, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Outside clients of the embedded Postgres (pg_dump, psql, scripts) while Quarry ingests. They share PGlite's one
 * backend session with the app, and once made the job runner lose its tables (pg_dump's empty search_path), prebuilt-rag
 * answer 500 and token revocation fail; an outside BEGIN stalled uploads for as long as it was held.
 */

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;
let port: number;
let password: string;

const outsideUrl = (pw = password) => `postgresql://postgres:${encodeURIComponent(pw)}@127.0.0.1:${port}/postgres`;

beforeAll(async () => {
  quarry = await startQuarry({ env: { QUARRY_JOB_CONCURRENCY: "2" } });
  api = apiClient(quarry);
  port = (JSON.parse(readFileSync(path.join(quarry.dataDir, "pgdata.lock"), "utf8")) as { port: number }).port;
  password = readFileSync(path.join(quarry.dataDir, "db-password"), "utf8").trim();
});
afterAll(async () => quarry?.dispose());

const connect = async (url: string) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  await client.connect();
  return client;
};

describe("the embedded Postgres port", () => {
  it("requires the data dir's password, kept readable by Quarry's user only", async () => {
    expect(statSync(path.join(quarry.dataDir, "db-password")).mode & 0o077).toBe(0);
    await expect(connect(outsideUrl("wrong"))).rejects.toThrow(/password authentication failed/);
    await expect(connect(`postgresql://postgres@127.0.0.1:${port}/postgres`)).rejects.toThrow();
    const psql = spawnSync("psql", [`postgresql://postgres@127.0.0.1:${port}/postgres`, "-w", "-Atc", "select 1"], {
      encoding: "utf8",
      env: { ...process.env, PGPASSWORD: "" },
    });
    expect(psql.status).not.toBe(0);
    const client = await connect(outsideUrl());
    expect((await client.query("select 1 + 1 as two")).rows).toEqual([{ two: 2 }]);
    await client.end();
  });

  it("keeps outside session state and transactions from stalling or breaking the app during ingests", async () => {
    const builds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await api.upload(`outside-${i}.txt`, textDoc(400, `basalt${i}`));
      expect(res.status).toBe(200);
      builds.push(((await res.json()) as { build_id: string }).build_id);
    }

    // A hostile session: no search path, a temp table shadowing the job runner's, read-only, a 1 ms timeout.
    const hostile = await connect(outsideUrl());
    await hostile.query("SELECT pg_catalog.set_config('search_path', '', false)");
    await hostile.query("CREATE TEMP TABLE job_runs (id int)");
    await hostile.query("SET default_transaction_read_only = on");
    await hostile.query("SET statement_timeout = 1");

    // pg_dump as a person would run it (Debian's pg_dump 15 stops at PGlite's server version 18, after it has set
    // its empty search_path, which is what used to break the app; a pg_dump >= 18 dumps).
    for (let i = 0; i < 3; i++) {
      const dump = spawnSync("pg_dump", ["--schema-only", outsideUrl()], { encoding: "utf8", timeout: 60_000 });
      expect(dump.status === 0 || /server version mismatch/.test(dump.stderr), dump.stderr).toBe(true);
    }
    // The hostile session still sees its own settings.
    expect((await hostile.query("SELECT current_setting('search_path') AS sp")).rows[0]).toEqual({ sp: "" });

    // An outside transaction left open: the app waits at most the idle limit, then that connection is ended.
    const holder = await connect(outsideUrl());
    await holder.query("BEGIN");
    await holder.query("SELECT count(*) FROM public.sources");
    const started = Date.now();
    const during = await api.get("");
    expect(during.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(8_000);
    await expect(holder.query("SELECT 1")).rejects.toThrow();

    for (const buildId of builds) {
      expect(await api.waitForBuild(buildId, 180_000)).toMatchObject({ status: "Completed", error: null });
    }
    const rag = await api.post("/prebuilt-rag", { query: "basalt2 fossils" });
    expect(rag.status).toBe(200);
    expect(((await rag.json()) as { total: number }).total).toBeGreaterThan(0);

    // Token revocation goes through while the hostile session is still connected.
    const token = createToken(quarry, "default", "read");
    expect((await apiClient(quarry, token).get("/config")).status).toBe(200);
    quarryCli(quarry, "token", "revoke", token);
    expect((await apiClient(quarry, token).get("/config")).status).toBe(401);
    expect(await (await fetch(`${quarry.url}/api/health`)).json()).toMatchObject({ status: "ok" });
    await hostile.end();
  });
});
