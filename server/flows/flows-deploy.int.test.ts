import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { flowCall } from "../testing/flow-client";
import { apiClient, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Deploy as a durable job (contract §7.3): a deploy whose build fails leaves the previous revision serving, and a
 * deploy killed with -9 in the middle of embedding resumes on restart and ends Deployed. The embedding model is an
 * OpenAI-compatible stand-in on loopback that can be told to fail or to hold the document's chunk batches.
 */

const FLOW = "reranked-rag";
const DATASET = "dataset-1764000000011";
const CHUNKING = "chunking-1764000000012";
let quarry: QuarryProcess;
let models: Server;
let mode: "ok" | "fail" | "hold" = "ok";
let held = 0;

const vector = (text: string) => {
  const v = Array.from({ length: 32 }, (_, i) => Math.sin(i + [...text].reduce((s, c) => s + c.charCodeAt(0), 0)));
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};
const call = (method: string, suffix: string, body?: unknown) =>
  flowCall(quarry.url, quarry.token, "path", FLOW, method, suffix, body);
const summary = async () => (await call("GET", "")).json();

beforeAll(async () => {
  models = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const input = (JSON.parse(raw) as { input: string[] }).input;
      // Only the document's chunks (not queries) are failed or held.
      const chunks = input.some((t) => t.includes("Paragraph"));
      if (chunks && mode === "fail") return void res.writeHead(500).end('{"error":{"message":"model down"}}');
      if (chunks && mode === "hold") return void (held += 1);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: vector(t) })) }));
    });
  });
  await new Promise<void>((resolve) => models.listen(0, "127.0.0.1", resolve));
  quarry = await startQuarry({
    env: {
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_BASE_URL: `http://127.0.0.1:${(models.address() as AddressInfo).port}/v1`,
      EMBEDDING_API_KEY: "sk-test",
      EMBEDDING_MODEL: "fake-embed-32",
    },
  });
  const text = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} on quarry stone number ${i}.`).join("\n\n");
  const { build_id } = (await (await apiClient(quarry).upload("stone.txt", text)).json()) as { build_id: string };
  expect(await apiClient(quarry).waitForBuild(build_id)).toMatchObject({ status: "Completed" });
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", path.resolve("examples/flows", `${FLOW}.json`));
  expect((await call("PATCH", `/datasets/${DATASET}`, { files: ["stone.txt"] })).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  models?.close();
});

it("a failed deploy marks the flow Failed and the previous revision keeps serving", async () => {
  const first = await call("POST", "/deploy", {});
  expect(first.status, first.text).toBe(200);
  const before = (await call("POST", "", { query: "stone number 7" })).json();
  expect(before.total).toBeGreaterThan(0);

  mode = "fail";
  await call("PATCH", `/chunking/${CHUNKING}`, { chunkSize: 300, chunkOverlap: 20 });
  const failed = await call("POST", "/deploy", {});
  expect(failed.status).toBe(500);
  expect(failed.json().detail).toMatch(/^Failed to deploy flow: .*model down/);
  const flow = await summary();
  expect(flow).toMatchObject({ status: "Failed", revision_id: first.json().revision_id });
  expect(flow.deploy).toMatchObject({ status: "failed" });
  const after = await call("POST", "", { query: "stone number 7" });
  expect(after.status).toBe(200);
  // The same chunk set answers (scores may move a little: keyword statistics count the failed build's chunks too).
  const ids = (body: { items: { metadata: { chunk_id: string } }[] }) =>
    body.items.map((i) => i.metadata.chunk_id).sort();
  expect(ids(after.json())).toEqual(ids(before));
}, 300_000);

it("a deploy killed with -9 while it embeds resumes on restart and ends Deployed", async () => {
  mode = "hold";
  await call("PATCH", `/chunking/${CHUNKING}`, { chunkSize: 400, chunkOverlap: 40 });
  const pending = call("POST", "/deploy", {}).catch(() => null);
  const deadline = Date.now() + 60_000;
  while (held === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(held).toBeGreaterThan(0);
  expect((await summary()).deploy).toMatchObject({ status: "building", step: `chunking ${CHUNKING}` });
  await quarry.kill("SIGKILL");
  await pending;
  mode = "ok";
  await quarry.restart();
  const until = Date.now() + 120_000;
  let flow = await summary();
  while (flow.deploy.status === "building" && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 500));
    flow = await summary();
  }
  expect(flow).toMatchObject({ status: "Deployed", deploy: { status: "ready", progress: 100 } });
  expect(flow.revision_id).toBe(flow.deploy.revision_id);
  const chunking = (await call("GET", "/chunking")).json()[0].data;
  expect(chunking.config).toMatchObject({ chunkSize: 400 });
  expect(chunking.result.total_chunks).toBeGreaterThan(0);
  expect((await call("POST", "", { query: "stone number 7" })).json().total).toBeGreaterThan(0);
}, 300_000);

it("rolls back to the previous ready revision from the CLI", async () => {
  const before = await summary();
  quarryCli(quarry, "flow", "rollback", FLOW, "--project", "default");
  const after = await summary();
  expect(after.status).toBe("Deployed");
  expect(after.revision_id).not.toBe(before.revision_id);
  expect((await call("POST", "", { query: "stone number 7" })).json().total).toBeGreaterThan(0);
  const chunking = (await call("GET", "/chunking")).json()[0].data.config;
  expect(chunking.chunkSize).toBe(400); // the draft is not touched by a rollback
});
