import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startProbe } from "../testing/health-probe";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * CI sample of `BENCH_ONLY=busy` (bench/busy.ts): the server answers while a large document builds. A build's writes
 * hold the embedded database's one session; one 100 MB upload made health calls time out for a minute. Here a 15 MB
 * text builds, then builds again (which also replaces the first build's elements), while health is probed as a load
 * balancer does; and health is asked while one statement holds the session for seconds, as a large write can.
 */

const MB = 15;
const BOUND_MS = 2_500;

/** Prose in paragraphs and sections, about `mb` megabytes. */
const document = (mb: number) => {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const text =
      i % 40 === 0
        ? `\nQuarry log, section ${i / 40}\n`
        : `Shipment ${i} of granite slabs left the quarry on day ${i % 365}, inspected for cracks by crew ${i % 97} ` +
          `and polished to grade ${i % 7}. Crew ${i % 89} logged batch ${i % 311} and its weight.\n`;
    parts.push(text);
    size += text.length + 1;
  }
  return parts.join("\n");
};

let quarry: QuarryProcess;

beforeAll(async () => {
  quarry = await startQuarry({ env: { QUARRY_RATE_LIMIT_PER_MIN: "0" } });
});
afterAll(async () => quarry?.dispose());

it("answers health checks promptly while a large document builds again", { timeout: 1_200_000 }, async () => {
  const api = apiClient(quarry);
  const fields = { indexing: "none", enrichment: "none" };
  const res = await api.upload("busy.txt", document(MB), fields);
  expect(res.status).toBe(200);
  const firstId = ((await res.json()) as { build_id: string }).build_id;
  const first = (await api.waitForBuild(firstId, 1_000_000)) as unknown as { status: string; file_id: string };
  expect(first.status).toBe("Completed");

  // As a load balancer probes: twice a second, 3 s timeout.
  const health = startProbe((signal) => fetch(`${quarry.url}/api/health`, { signal }), {
    intervalMs: 500,
    timeoutMs: 3_000,
  });
  const again = await api.post("/reprocess", { file_id: first.file_id, ...fields });
  expect(again.status).toBe(200);
  const build = await api.waitForBuild(((await again.json()) as { build_id: string }).build_id, 1_000_000);
  const report = await health.stop();
  process.stderr.write(`health while it built again: ${report.calls} probes, max ${report.maxMs} ms\n`);
  expect(build.status).toBe("Completed");
  const slow = report.samples.filter((s) => !s.ok || s.ms > BOUND_MS);
  expect(slow, `${report.calls} probes, max ${report.maxMs} ms`).toEqual([]);
  expect(report.calls).toBeGreaterThan(10);
});

it("reports a database held by a long statement as busy, not down, without waiting for it", async () => {
  const { port } = JSON.parse(readFileSync(path.join(quarry.dataDir, "pgdata.lock"), "utf8")) as { port: number };
  const password = readFileSync(path.join(quarry.dataDir, "db-password"), "utf8").trim();
  const client = new pg.Client({ connectionString: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres` });
  await client.connect();
  try {
    // The app answered a moment ago: the database is alive.
    expect((await fetch(`${quarry.url}/api/health`)).status).toBe(200);
    // One statement holds the one session for 6 s, as a large build's write could.
    const held = client.query("SELECT pg_sleep(6)").catch((error: unknown) => error);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const res = await fetch(`${quarry.url}/api/health`, { signal: AbortSignal.timeout(5_000) });
    const ms = Date.now() - started;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "busy" });
    expect(ms).toBeLessThan(BOUND_MS);
    await held;
  } finally {
    await client.end();
  }
});
