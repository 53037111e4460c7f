import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../errors";
import { resolveDimension } from ".";
import { MAX_BATCH_INPUTS, createOpenAIEmbedder } from "./openai-embedder";

type Call = { auth: string | undefined; body: { model: string; input: string[]; dimensions?: number } };

/** A local stand-in for an OpenAI-compatible `/embeddings` endpoint, scripted per test. */
let server: Server;
let baseUrl = "";
let calls: Call[] = [];
let failures: { status: number; body: string; headers?: Record<string, string> }[] = [];

const readBody = async (req: IncomingMessage) => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString("utf8")) as Call["body"];
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      res.writeHead(404).end();
      return;
    }
    const body = await readBody(req);
    calls.push({ auth: req.headers.authorization, body });
    const failure = failures.shift();
    if (failure) {
      res.writeHead(failure.status, { "content-type": "application/json", ...failure.headers }).end(failure.body);
      return;
    }
    const dim = body.dimensions ?? 8;
    // Reversed order on purpose: clients must sort by `index`.
    const data = body.input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: Array.from({ length: dim }, (_, k) => (k === 0 ? text.length : index)),
    }));
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", data: data.reverse(), model: body.model }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  calls = [];
  failures = [];
});

describe("OpenAI-compatible embedder", () => {
  it("batches inputs, sends the key and keeps input order", async () => {
    const embedder = createOpenAIEmbedder({ baseUrl, apiKey: "sk-test", model: "my-model", retryDelayMs: 1 });
    expect(embedder.dimension).toBe(0);
    const texts = Array.from({ length: 200 }, (_, i) => "x".repeat(i + 1));
    const vectors = await embedder.embed(texts);
    expect(calls.map((c) => c.body.input.length)).toEqual([
      MAX_BATCH_INPUTS,
      MAX_BATCH_INPUTS,
      200 - 2 * MAX_BATCH_INPUTS,
    ]);
    expect(
      calls.every((c) => c.auth === "Bearer sk-test" && c.body.model === "my-model" && c.body.dimensions === undefined),
    ).toBe(true);
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(embedder.dimension).toBe(8);
  });

  it("splits batches by total size too", async () => {
    const embedder = createOpenAIEmbedder({ baseUrl, model: "m", retryDelayMs: 1 });
    await embedder.embed(Array.from({ length: 30 }, () => "y".repeat(20_000)));
    expect(calls.length).toBeGreaterThan(2);
    for (const c of calls) expect(c.body.input.join("").length).toBeLessThanOrEqual(250_000);
    expect(calls[0]?.auth).toBeUndefined();
  });

  it("retries a 429 and then succeeds", async () => {
    failures = [{ status: 429, body: '{"error":{"message":"Rate limit reached"}}', headers: { "retry-after": "0" } }];
    const embedder = createOpenAIEmbedder({
      baseUrl,
      apiKey: "k",
      model: "text-embedding-3-small",
      dimensions: 4,
      retryDelayMs: 1,
    });
    expect(embedder.dimension).toBe(4);
    const vectors = await embedder.embed(["hello", ""]);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toMatchObject({ dimensions: 4, input: ["hello", " "] });
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(4);
  });

  it("gives up after three tries with the status and the body in the message", async () => {
    failures = Array.from({ length: 3 }, () => ({ status: 503, body: "upstream overloaded, try later" }));
    const embedder = createOpenAIEmbedder({ baseUrl, model: "m", retryDelayMs: 1 });
    const error = await embedder.embed(["a"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: true, status: 503 });
    expect((error as Error).message).toMatch(/^Embedding request failed: HTTP 503 .*upstream overloaded, try later/);
    expect(calls).toHaveLength(3);
  });

  it("does not retry a client error", async () => {
    failures = [{ status: 401, body: '{"error":{"message":"Incorrect API key provided"}}' }];
    const embedder = createOpenAIEmbedder({ baseUrl, apiKey: "bad", model: "m", retryDelayMs: 1 });
    const error = await embedder.embed(["a"]).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: false, status: 401, remoteMessage: "Incorrect API key provided" });
    expect((error as Error).message).toMatch(/HTTP 401 .*Incorrect API key provided/);
    expect(calls).toHaveLength(1);
  });

  it("learns an unknown dimension with one probe", async () => {
    const embedder = createOpenAIEmbedder({ baseUrl, model: "self-hosted", retryDelayMs: 1 });
    expect(await resolveDimension(embedder)).toBe(8);
    expect(embedder.dimension).toBe(8);
  });
});
