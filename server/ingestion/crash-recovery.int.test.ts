import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { pdfDoc, textDoc } from "../testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * kill -9 in the middle of ingestion, then a restart on the same data dir: every build completes, and each source
 * has exactly one copy of its elements and chunks (steps resumed, not duplicated).
 */

let quarry: QuarryProcess | undefined;
afterAll(async () => quarry?.dispose());

it("resumes every build after kill -9 mid-ingest", { timeout: 300_000 }, async () => {
  quarry = await startQuarry({ env: { QUARRY_JOB_CONCURRENCY: "1" } });
  const api = apiClient(quarry);
  const uploads = [
    ["big-1.txt", textDoc(4000, "granite")],
    ["big-2.txt", textDoc(4000, "marble")],
    ["doc.pdf", await pdfDoc({ pages: 30 })],
    ["small.md", "# Small\n\nA small note about slate."],
  ] as const;
  const buildIds: string[] = [];
  for (const [name, content] of uploads) {
    const res = await api.upload(name, content);
    expect(res.status).toBe(200);
    buildIds.push(((await res.json()) as { build_id: string }).build_id);
  }

  // Wait until the first build is mid-flight, then pull the plug.
  for (let i = 0; i < 200; i++) {
    const status = (
      (await (await api.get(`/builds/${buildIds[0]}?suppress_elements=true`)).json()) as { status: string }
    ).status;
    if (status === "Processing") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const killed = quarry.pid();
  await quarry.kill("SIGKILL");

  await quarry.restart();
  // Scratch copies of documents live under the data dir (not a shared /tmp); the killed run's are removed on start.
  expect(readdirSync(path.join(quarry.dataDir, "tmp"))).toEqual([String(quarry.pid())]);
  expect(quarry.pid()).not.toBe(killed);
  for (const buildId of buildIds) {
    const build = await api.waitForBuild(buildId, 180_000);
    expect(build, quarry.output()).toMatchObject({ status: "Completed", error: null });
  }

  // Exactly one set of elements per source: positions 0..n-1 without duplicates.
  for (const buildId of buildIds) {
    const { file_id } = (await (await api.get(`/builds/${buildId}?suppress_elements=true`)).json()) as {
      file_id: string;
    };
    const elements = (await (await api.get(`/get-elements?file_id=${file_id}`)).json()) as {
      items: { position: number }[];
      total: number;
    };
    expect(elements.items.map((e) => e.position)).toEqual(Array.from({ length: elements.total }, (_, i) => i));
  }
  const rag = (await (await api.post("/prebuilt-rag", { query: "marble paragraph 17 fossils" })).json()) as {
    chunks: { text: string }[];
  };
  expect(rag.chunks.length).toBeGreaterThan(0);
  expect(new Set(rag.chunks.map((c) => c.text)).size).toBe(rag.chunks.length);
});

it("creates and revokes tokens from the CLI while Quarry is stopped", { timeout: 120_000 }, async () => {
  if (!quarry) throw new Error("the previous test starts Quarry");
  await quarry.kill("SIGTERM");
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/quarry.ts", ...args], {
      env: {
        ...process.env,
        QUARRY_DATA_DIR: quarry!.dataDir,
        LOG_LEVEL: "warn",
        // The app's own database when it runs on an outside Postgres (the real-Postgres run).
        ...(quarry!.databaseUrl ? { DATABASE_URL: quarry!.databaseUrl } : {}),
      },
      encoding: "utf8",
    }).trim();
  const kept = cli("token", "create", "--project", "offline");
  const revoked = cli("token", "create", "--project", "offline");
  cli("token", "revoke", revoked);
  await quarry.restart();
  expect((await apiClient(quarry, kept).get("/config")).status).toBe(200);
  expect((await apiClient(quarry, revoked).get("/config")).status).toBe(401);
});
