import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { flowCall } from "../testing/flow-client";
import { apiClient, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * The raptor-rag example flow through the public API on a real server (model-free): deploy builds the tree, `GET
 * {flow_url}/raptor-rag` shows its counts and the contract's ratios, a run returns items of several levels whose
 * summaries name their documents, and the reranked example flow, whose chunking node has the same settings and so
 * shares the chunk sets, never returns a summary.
 */

let quarry: QuarryProcess;
const call = (flow: string, method: string, suffix: string, body?: unknown) =>
  flowCall(quarry.url, quarry.token, "path", flow, method, suffix, body);

const TOPICS = ["granite quarry blasting", "harbour tides lighthouse", "orchard apples cider", "violin rosin bowing"];
const doc = (topic: string, n: number) =>
  Array.from(
    { length: 40 },
    (_, i) => `Part ${n}.${i}: the ${topic} log notes ${i * 3} entries at station ${n * 50 + i}.`,
  ).join("\n\n");

beforeAll(async () => {
  quarry = await startQuarry();
  for (const [i, topic] of TOPICS.entries()) {
    const res = await apiClient(quarry).upload(`${topic.split(" ")[0]}.txt`, doc(topic, i));
    const { build_id } = (await res.json()) as { build_id: string };
    expect(await apiClient(quarry).waitForBuild(build_id)).toMatchObject({ status: "Completed" });
  }
  const files = TOPICS.map((t) => `${t.split(" ")[0]}.txt`);
  for (const [flow, dataset] of [
    ["raptor-rag", "dataset-1764000000041"],
    ["reranked-rag", "dataset-1764000000011"],
  ] as const) {
    quarryCli(
      quarry,
      "flow",
      "import",
      "--project",
      "default",
      "--file",
      path.resolve("examples/flows", `${flow}.json`),
    );
    expect((await call(flow, "PATCH", `/datasets/${dataset}`, { files })).status).toBe(200);
  }
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
});

it("deploys the tree, lists its metrics, runs over every level, and a plain flow on the same chunk sets sees none", async () => {
  const deploy = await call("raptor-rag", "POST", "/deploy", {});
  expect(deploy.status, JSON.stringify(deploy.json())).toBe(200);
  const [node] = (await call("raptor-rag", "GET", "/raptor-rag")).json();
  const r = node.data.result;
  expect(r.total_chunks).toBeGreaterThan(10);
  expect(r.tree_levels).toBeGreaterThanOrEqual(1);
  expect(r.tree_levels).toBeLessThanOrEqual(3);
  expect(r.total_summaries).toBe(r.total_clusters);
  expect(r.clustering_ratio).toBeCloseTo(r.total_clusters / r.total_chunks, 3);
  expect(r.summarization_ratio).toBe(1);
  expect(r.tree_density).toBeCloseTo(r.total_summaries / r.tree_levels, 3);

  const run = (
    await call("raptor-rag", "POST", "", { query: "granite quarry blasting log entries", page_size: 10 })
  ).json();
  expect(run.items.length).toBe(10);
  const levels = run.items.map((i: { metadata: { level: number } }) => i.metadata.level);
  expect(levels.every((l: unknown) => typeof l === "number")).toBe(true);
  const summary = run.items.find((i: { metadata: { level: number } }) => i.metadata.level > 0);
  expect(summary, JSON.stringify(levels)).toBeDefined();
  expect(summary.metadata.file_ids).toContain(summary.metadata.file_id);
  expect(summary.metadata.source).toMatch(/\.txt$/);
  expect(summary.metadata.relevance_score).toBeGreaterThan(0);
  expect(summary.metadata.relevance_score).toBeLessThanOrEqual(1);

  expect((await call("reranked-rag", "POST", "/deploy", {})).status).toBe(200);
  const plain = (await call("reranked-rag", "POST", "", { query: summary.page_content })).json();
  expect(plain.items.length).toBeGreaterThan(0);
  const ids = plain.items.map((i: { metadata: { chunk_id: string } }) => i.metadata.chunk_id);
  expect(ids).not.toContain(summary.metadata.chunk_id);
  expect(plain.items.every((i: { metadata: Record<string, unknown> }) => !("level" in i.metadata))).toBe(true);
});
