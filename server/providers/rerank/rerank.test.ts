import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../../env";
import { getReranker, LOCAL_RERANK_MODEL } from ".";
import { createHttpReranker, parseRerankResponse } from "./http-reranker";
import { rerankLocally } from "./local-reranker";

/** A stand-in for a Cohere/Jina-style `/rerank` API on loopback: the real client code is on the path. */
type Call = { auth?: string; body: { model: string; query: string; documents: string[]; top_n: number } };
let server: Server;
let baseUrl = "";
let calls: Call[] = [];
let reply: (body: Call["body"]) => { status: number; json: unknown } = () => ({ status: 200, json: {} });

/** Relevance like a cross-encoder would give it: the share of query words a document contains. */
const overlapScore = (query: string, doc: string) => {
  const words = query.toLowerCase().match(/\w+/g) ?? [];
  const text = doc.toLowerCase();
  return words.filter((w) => text.includes(w)).length / Math.max(1, words.length);
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      if (req.url !== "/v1/rerank" || req.method !== "POST") return void res.writeHead(404).end();
      const body = JSON.parse(raw) as Call["body"];
      calls.push({ auth: req.headers.authorization, body });
      const { status, json } = reply(body);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  calls = [];
});

describe("HTTP reranker", () => {
  it("sends the Cohere request shape with the key and maps scores back to input order", async () => {
    reply = (body) => ({
      status: 200,
      json: {
        // Sorted by relevance, as Cohere and Jina answer.
        results: body.documents
          .map((d, index) => ({ index, relevance_score: overlapScore(body.query, d) }))
          .sort((a, b) => b.relevance_score - a.relevance_score),
      },
    });
    const reranker = createHttpReranker({ baseUrl, model: "rerank-v3.5", apiKey: "sk-rr", retryDelayMs: 1 });
    const scores = await reranker.rerank("granite quarry saws", [
      { text: "Bread recipes" },
      { text: "Saws in a granite quarry" },
      { text: "A quarry" },
    ]);
    expect(scores).toEqual([0, 1, 1 / 3]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      auth: "Bearer sk-rr",
      body: { model: "rerank-v3.5", query: "granite quarry saws", top_n: 3 },
    });
    expect(reranker).toMatchObject({ kind: "http", model: "rerank-v3.5" });
  });

  it("reads TEI's bare list and Voyage's data, and maps logits into (0, 1) keeping their order", () => {
    expect(
      parseRerankResponse(
        [
          { index: 1, score: 0.9 },
          { index: 0, score: 0.2 },
        ],
        2,
        "u",
      ),
    ).toEqual([0.2, 0.9]);
    expect(parseRerankResponse({ data: [{ index: 0, relevance_score: 0.4 }] }, 2, "u")).toEqual([0.4, 0]);
    const logits = parseRerankResponse(
      {
        results: [
          { index: 0, score: -3.2 },
          { index: 1, score: 4.1 },
        ],
      },
      2,
      "u",
    );
    expect(logits[0]).toBeGreaterThan(0);
    expect(logits[1]).toBeLessThan(1);
    expect(logits[1]).toBeGreaterThan(logits[0]!);
    expect(() => parseRerankResponse({ results: [] }, 2, "u")).toThrow(/scored none/);
    expect(() => parseRerankResponse({ nothing: true }, 2, "u")).toThrow(/no results list/);
  });

  it("retries a 503, then fails naming the status and the provider's words", async () => {
    reply = () => ({ status: 503, json: { message: "model is loading" } });
    const reranker = createHttpReranker({ baseUrl, model: "m", retryDelayMs: 1 });
    await expect(reranker.rerank("q", [{ text: "a" }])).rejects.toThrow(/HTTP 503 .*model is loading/);
    expect(calls).toHaveLength(3);
    calls = [];
    reply = () => ({ status: 401, json: { message: "invalid api token" } });
    await expect(reranker.rerank("q", [{ text: "a" }])).rejects.toThrow(/HTTP 401 .*invalid api token/);
    expect(calls).toHaveLength(1);
  });

  it("is what the environment configures, else the local reranker", () => {
    setRuntimeEnv("RERANK_BASE_URL", "");
    expect(getReranker()).toMatchObject({ kind: "local", model: LOCAL_RERANK_MODEL });
    setRuntimeEnv("RERANK_BASE_URL", baseUrl);
    setRuntimeEnv("RERANK_MODEL", "jina-reranker-v2-base-multilingual");
    expect(getReranker()).toMatchObject({ kind: "http", model: "jina-reranker-v2-base-multilingual" });
    setRuntimeEnv("RERANK_BASE_URL", "");
  });
});

describe("local reranker", () => {
  it("prefers passages holding more of the query's rarer words, and its phrases, scores in [0, 1]", () => {
    const query = "diamond wire saw cutting granite";
    const passages = [
      { text: "Granite blocks wait in the yard of the quarry.", score: 0.6 },
      { text: "A diamond wire saw makes cutting granite blocks fast and clean.", score: 0.55 },
      { text: "Granite, wire and a diamond were listed; the saw came later.", score: 0.55 },
      { text: "The weather was fine all week.", score: 0.1 },
    ];
    const scores = rerankLocally(query, passages);
    expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
    expect(scores[1]).toBeGreaterThan(scores[0]!); // covers every word, though first-stage ranked it lower
    expect(scores[1]).toBeGreaterThan(scores[2]!); // same words, but "diamond wire saw" as a phrase
    expect(scores[0]).toBeGreaterThan(scores[3]!);
  });

  it("keeps the first-stage order when the passages hold the query's words alike", () => {
    const scores = rerankLocally("granite", [
      { text: "granite", score: 0.2 },
      { text: "granite", score: 0.9 },
    ]);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
  });
});
