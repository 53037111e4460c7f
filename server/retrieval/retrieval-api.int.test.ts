import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { markdownDoc, textDoc } from "../testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { expectedKeywordEngine } from "../testing/scratch-database";

/**
 * Retrieval through the real app and HTTP: prebuilt-rag with each search_type, GET /config and /api/health naming the
 * keyword engine, a `/rerank` API as the semantic reranker, and a change of embedding model: searches stay keyword
 * only (and say so) until the re-embedding job has finished, and a kill -9 in the middle of that job is survived.
 * Remote models are stand-ins on loopback speaking the real protocols; the real client code is on the path.
 * The keyword engine is BM25 on the embedded Postgres and the full-text fallback on the real Postgres 15 run.
 */

const engine = expectedKeywordEngine();

type Rag = {
  chunks: { text: string; file_name: string; score: number; metadata: Record<string, unknown> }[];
  total: number;
  message?: string;
  search_type: string;
  keyword_engine: string;
  embedding_model: string | null;
  reranker?: string;
};

const DIM = 64;
const fakeVector = (text: string) => {
  const v = new Array<number>(DIM).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? [])
    v[createHash("md5").update(word).digest()[0]! % DIM]! += 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};

/** Both stand-ins: `/v1/embeddings` (OpenAI) and `/v1/rerank` (Cohere). Chunk batches can be held back on demand. */
let models: Server;
let modelsUrl = "";
const seen = { embedBatches: 0, embeddedChunks: 0, rerank: 0, rerankAuth: "" };
let holdChunkBatches = false;
let heldOnce: () => void = () => undefined;
const held = new Promise<void>((resolve) => (heldOnce = resolve));

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;

const rag = async (body: Record<string, unknown>) => {
  const res = await api.post("/prebuilt-rag", body);
  expect(res.status).toBe(200);
  return (await res.json()) as Rag;
};

beforeAll(async () => {
  models = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw) as { input?: string[]; model: string; query?: string; documents?: string[] };
      res.setHeader("content-type", "application/json");
      if (req.url === "/v1/rerank") {
        seen.rerank += 1;
        seen.rerankAuth = req.headers.authorization ?? "";
        if (body.query?.includes("overloaded")) return void res.writeHead(503).end('{"message":"overloaded"}');
        // Relevance: does the document mention marble? (So the reranker visibly reorders.)
        const results = (body.documents ?? []).map((d, index) => ({
          index,
          relevance_score: /marble/i.test(d) ? 0.9 : 0.1,
        }));
        return void res.end(JSON.stringify({ results }));
      }
      const input = body.input ?? [];
      const chunkBatch = input.some((t) => /Paragraph \d+/.test(t));
      if (chunkBatch) {
        seen.embedBatches += 1;
        // Held batches never answer: the app is killed while it waits for them.
        if (holdChunkBatches && seen.embedBatches > 1) return heldOnce();
        seen.embeddedChunks += input.length;
      }
      res.end(
        JSON.stringify({
          object: "list",
          model: body.model,
          data: input.map((text, index) => ({ object: "embedding", index, embedding: fakeVector(text) })),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => models.listen(0, "127.0.0.1", resolve));
  modelsUrl = `http://127.0.0.1:${(models.address() as AddressInfo).port}/v1`;
  quarry = await startQuarry();
  api = apiClient(quarry);
  for (const [name, content] of [
    ["granite.md", markdownDoc()],
    ["marble.md", "# Marble\n\nMarble slabs are polished with abrasives; wire saws cut marble blocks too.\n"],
    ["limestone.txt", textDoc(800)], // about 90 chunks: two batches for the embedding provider
  ]) {
    const { build_id } = (await (await api.upload(name!, content!)).json()) as { build_id: string };
    expect(await api.waitForBuild(build_id)).toMatchObject({ status: "Completed" });
  }
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  models?.close();
});

it("answers prebuilt-rag with each search_type, and names the engines in /config and /api/health", async () => {
  const orders = new Set<string>();
  for (const searchType of ["similarity", "keyword", "hybrid", "semantic", undefined]) {
    const result = await rag({
      query: "wire saws with diamond beads",
      ...(searchType ? { search_type: searchType } : {}),
    });
    expect(result).toMatchObject({ search_type: searchType ?? "hybrid", keyword_engine: engine });
    expect(result.total).toBe(result.chunks.length);
    expect(result.total).toBeGreaterThan(0);
    expect(result.total).toBeLessThanOrEqual(10);
    expect(result.chunks[0]!.file_name).toBe("granite.md");
    const scores = result.chunks.map((c) => c.score);
    expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(result.chunks[0]!.metadata).toMatchObject({ file_name: "granite.md", document_title: "Granite quarries" });
    if (searchType === "semantic") expect(result.reranker).toBe("quarry-term-coverage-v1");
    orders.add(result.chunks.map((c) => `${c.text.slice(0, 20)}:${c.score}`).join("|"));
  }
  expect(orders.size).toBe(4); // hybrid is the default: four different rankings for five calls

  const bad = await api.post("/prebuilt-rag", { query: "granite", search_type: "fuzzy" });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({
    detail: "Invalid search_type 'fuzzy'. Valid values: similarity, keyword, hybrid, semantic",
  });

  // A model is named the same way in /config and in prebuilt-rag (contract §5.15).
  const semantic = await rag({ query: "wire saws", search_type: "semantic" });
  const config = await (await api.get("/config")).json();
  expect(config).toMatchObject({ embedding_model: semantic.embedding_model, reranker: semantic.reranker });
  expect(config).toMatchObject({
    keyword_engine: engine,
    search_types: ["similarity", "keyword", "hybrid", "semantic"],
    embedding_model: "quarry-hash-256-v1",
    reranker: "quarry-term-coverage-v1",
    reembedding: null,
  });
  expect(await (await fetch(`${quarry.url}/api/health`)).json()).toEqual({ status: "ok", keyword_engine: engine });
});

it("reranks semantic searches with a /rerank API when one is configured, and says when it failed", async () => {
  await quarry.kill("SIGTERM");
  await quarry.restart({ RERANK_BASE_URL: modelsUrl, RERANK_MODEL: "rerank-stand-in", RERANK_API_KEY: "rk-test" });
  const result = await rag({ query: "wire saws cutting blocks", search_type: "semantic" });
  expect(result).toMatchObject({ search_type: "semantic", reranker: "rerank-stand-in" });
  expect(result.message).toBeUndefined();
  expect(result.chunks[0]).toMatchObject({ file_name: "marble.md", score: 0.9 });
  expect(seen).toMatchObject({ rerankAuth: "Bearer rk-test" });
  expect(seen.rerank).toBeGreaterThan(0);
  const failed = await rag({ query: "wire saws overloaded", search_type: "semantic" });
  expect(failed.search_type).toBe("hybrid");
  expect(failed.message).toMatch(/reranker rerank-stand-in failed .*HTTP 503.*hybrid order/);
  expect(failed.chunks.length).toBeGreaterThan(0);
});

it(
  "re-embeds every chunk set after a model change, searching by keyword until done, through a kill -9",
  { timeout: 300_000 },
  async () => {
    holdChunkBatches = true;
    await quarry.kill("SIGTERM");
    const newModel = {
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_BASE_URL: modelsUrl,
      EMBEDDING_API_KEY: "sk-test",
      EMBEDDING_MODEL: "fake-embed-64",
    };
    await quarry.restart(newModel);
    // The first batch is written, the second hangs at the provider.
    const waited = await Promise.race([held.then(() => true), new Promise((r) => setTimeout(() => r(false), 90_000))]);
    if (!waited) throw new Error(`re-embedding never reached its second batch:\n${quarry.output().slice(-3000)}`);
    const config = (await (await api.get("/config")).json()) as {
      embedding_model: string;
      reembedding: { status: string; done_chunks: number; total_chunks: number } | null;
    };
    expect(config.embedding_model).toBe("fake-embed-64");
    expect(config.reembedding).toMatchObject({ status: "running" });
    expect(config.reembedding!.done_chunks).toBeGreaterThan(0);
    expect(config.reembedding!.done_chunks).toBeLessThan(config.reembedding!.total_chunks);
    // Never mixed: the old model's vectors are not compared with the new model's query vector.
    const during = await rag({ query: "wire saws with diamond beads" });
    expect(during).toMatchObject({ search_type: "keyword", embedding_model: null });
    expect(during.message).toMatch(
      /hold vectors of another embedding model than fake-embed-64.*Re-embedding is under way/,
    );
    expect(during.chunks[0]!.text).toMatch(/wire saw/i);

    await quarry.kill("SIGKILL");
    holdChunkBatches = false;
    await quarry.restart(newModel);
    const deadline = Date.now() + 180_000;
    for (;;) {
      const now = (await (await api.get("/config")).json()) as { reembedding: unknown };
      if (now.reembedding === null) break;
      if (Date.now() > deadline) throw new Error(`re-embedding did not finish: ${JSON.stringify(now)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const after = await rag({ query: "wire saws with diamond beads" });
    expect(after).toMatchObject({ search_type: "hybrid", embedding_model: "fake-embed-64" });
    expect(after.message).toBeUndefined();
    expect(after.chunks[0]!.file_name).toBe("granite.md");
    const similar = await rag({ query: "Marble slabs are polished with abrasives", search_type: "similarity" });
    expect(similar).toMatchObject({ search_type: "similarity", embedding_model: "fake-embed-64" });
    expect(similar.chunks[0]!.file_name).toBe("marble.md");
  },
);
