import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { graphFixture } from "./graph-fixture";

/**
 * Graph builds on real parts (embedded Postgres, wink-nlp, graphology, the local embedder; the stand-in chat model
 * over real HTTP): extraction, merging and communities model-free and with a model, on a generated document (always)
 * and on corpus documents (when ../shared is there); retrieval, idempotent steps, budget stops and tenant isolation.
 */

const CORPUS = path.resolve("../shared/corpus");
let database: TestDatabase;
let chat: FakeChatServer;

beforeAll(async () => {
  database = await startTestDatabase();
  setRuntimeEnv("LLM_PROVIDER", "local");
  chat = await startFakeChatServer();
});
afterAll(async () => {
  await database?.stop();
  await chat?.close();
});

const withModel = (on: boolean) => {
  setRuntimeEnv("LLM_PROVIDER", on ? "openai" : "local");
  setRuntimeEnv("LLM_BASE_URL", chat.baseUrl);
  setRuntimeEnv("LLM_API_KEY", "sk-test");
  setRuntimeEnv("LLM_MODEL", "stand-in-graph");
};

const indexed = async (project: string, documents: { fileName: string; content: string }[]) => {
  const { ensureProject } = await import("../projects/service");
  const { indexDocuments } = await import("../testing/index-documents");
  const { sourceChunkSets } = await import("../chunk-sets/service");
  const { id: projectId } = await ensureProject(project);
  const sources = await indexDocuments({ projectId, documents });
  return {
    projectId,
    chunkSetIds: await sourceChunkSets(
      projectId,
      sources.map((s) => s.sourceId),
    ),
  };
};

/** Builds the graph index of these chunk sets step by step, as the deploy job does. */
const build = async (projectId: string, chunkSetIds: string[], budget = 10_000_000) => {
  const { ensureIndex, advanceIndex } = await import("../flows/node-indexes/service");
  const { db } = await import("../db");
  const index = await ensureIndex(projectId, "graph-rag", { topK: 5 }, chunkSetIds);
  const started = performance.now();
  let steps = 0;
  for (;;) {
    steps += 1;
    if ((await advanceIndex(index.id, budget)).done) break;
  }
  const row = await db.flowNodeIndex.findUniqueOrThrow({ where: { id: index.id } });
  return { index: row, steps, ms: Math.round(performance.now() - started) };
};

const systemOf = (r: { messages: { role: string; content: string }[] }) =>
  r.messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
const graphRequests = () => chat.requests.filter((r) => /knowledge graph|same real-world entity/.test(systemOf(r)));

const search = async (projectId: string, indexId: string, query: string, topK: number | null = null) => {
  const { graphRagBuilder } = await import("./builder");
  return graphRagBuilder.retrieve({ projectId, indexId, query, topK });
};

describe("generated document", () => {
  let fixture: Awaited<ReturnType<typeof indexed>>;
  beforeAll(async () => {
    fixture = await indexed("graph-fixture", [{ fileName: "computing-history.txt", content: graphFixture() }]);
  });

  it("model-free: wink-nlp entities, co-occurrence edges, Louvain communities, extractive summaries", async () => {
    withModel(false);
    const { db } = await import("../db");
    const { index, steps } = await build(fixture.projectId, fixture.chunkSetIds);
    expect(index).toMatchObject({ status: "ready", model: null, usage: {} });
    const counts = index.counts as Record<string, number>;
    expect(counts.total_entities).toBeGreaterThan(12);
    expect(counts.total_relationships).toBeGreaterThan(counts.total_entities! / 2);
    expect(counts.total_communities).toBeGreaterThanOrEqual(3);
    expect(counts.total_chunks).toBeGreaterThan(0);
    expect(steps).toBeLessThan(20);
    const ada = await db.graphEntity.findFirstOrThrow({ where: { nodeIndexId: index.id, key: "ada lovelace" } });
    expect(ada).toMatchObject({ name: "Ada Lovelace", type: "NAME" });
    expect(ada.description).toContain("Ada Lovelace");
    // Ada and Babbage share sentences: one community; Turing works elsewhere.
    const turing = await db.graphEntity.findFirstOrThrow({ where: { nodeIndexId: index.id, key: "alan turing" } });
    const babbage = await db.graphEntity.findFirstOrThrow({ where: { nodeIndexId: index.id, key: "charles babbage" } });
    // Communities nest (Louvain again inside the big ones): Ada and Babbage share a top community, Turing does not.
    const top = async (id: string | null): Promise<string | null> => {
      const c = id ? await db.graphCommunity.findUniqueOrThrow({ where: { id } }) : null;
      return c?.parentId ? top(c.parentId) : (c?.id ?? null);
    };
    expect(await top(babbage.communityId)).toBe(await top(ada.communityId));
    expect(await top(turing.communityId)).not.toBe(await top(ada.communityId));
    // The misspelt "Charles Babage" is merged into Charles Babbage (one edit in a long name).
    expect(await db.graphEntity.count({ where: { nodeIndexId: index.id, key: "charles babage" } })).toBe(0);
    expect(babbage.name).toBe("Charles Babbage");
    // Extractive summaries are sentences of the document, nothing else.
    const text = graphFixture().replace(/\s+/g, " ");
    const summaries = await db.graphCommunity.findMany({ where: { nodeIndexId: index.id, summary: { not: "" } } });
    expect(summaries.length).toBeGreaterThan(0);
    for (const c of summaries)
      for (const sentence of c.summary!.split(/(?<=[.!?])\s+/)) expect(text).toContain(sentence.replace(/…$/, ""));

    const items = await search(fixture.projectId, index.id, "Who worked with Ada Lovelace?");
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(5);
    for (const item of items) {
      expect(item.score).toBeGreaterThanOrEqual(0);
      expect(item.score).toBeLessThanOrEqual(1);
    }
    expect(items[0]!.text).toContain("Ada Lovelace");
    expect(items[0]!.metadata.graph).toMatchObject({ entities: expect.arrayContaining(["Ada Lovelace"]) });
    expect(await search(fixture.projectId, index.id, "Ada Lovelace", 1)).toHaveLength(1);
  });

  it("a step redone from the same checkpoint changes nothing", async () => {
    withModel(false);
    const { db } = await import("../db");
    const { graphRagBuilder } = await import("./builder");
    const { index } = await build(fixture.projectId, fixture.chunkSetIds);
    const input = {
      index: { id: index.id, projectId: index.projectId, chunkSetIds: index.chunkSetIds, settings: {} },
      model: null,
    };
    const before = await Promise.all([
      db.graphExtraction.count({ where: { nodeIndexId: index.id } }),
      db.graphEntity.count({ where: { nodeIndexId: index.id } }),
      db.graphMention.count({ where: { nodeIndexId: index.id } }),
    ]);
    await graphRagBuilder.advance({ ...input, checkpoint: { stage: "extract", next: 0 } });
    await graphRagBuilder.advance({ ...input, checkpoint: { stage: "write" } });
    await graphRagBuilder.advance({ ...input, checkpoint: { stage: "write" } });
    const after = await Promise.all([
      db.graphExtraction.count({ where: { nodeIndexId: index.id } }),
      db.graphEntity.count({ where: { nodeIndexId: index.id } }),
      db.graphMention.count({ where: { nodeIndexId: index.id } }),
    ]);
    expect(after).toEqual(before);
  });

  it("with the stand-in model: typed entities, gleaning, the model's merge answers, community summaries, metered", async () => {
    withModel(true);
    const { db } = await import("../db");
    const { graphRagBuilder } = await import("./builder");
    const sent = chat.requests.length;
    const { index } = await build(fixture.projectId, fixture.chunkSetIds);
    const requests = chat.requests.slice(sent);
    const chunks = (index.counts as Record<string, number>).total_chunks!;
    const extract = requests.filter((r) => /knowledge graph from a text passage\. List/.test(systemOf(r)));
    const glean = requests.filter((r) => /earlier extraction missed/.test(systemOf(r)));
    expect(extract).toHaveLength(chunks);
    expect(glean).toHaveLength(chunks);
    expect(requests.some((r) => /summarise a community/.test(systemOf(r)))).toBe(true);
    expect(requests.some((r) => /same real-world entity/.test(systemOf(r)))).toBe(true);
    expect(index).toMatchObject({ status: "ready", model: "stand-in-graph" });
    expect((index.usage as { calls: number }).calls).toBe(requests.length);
    const types = new Set((await db.graphEntity.findMany({ where: { nodeIndexId: index.id } })).map((e) => e.type));
    expect([...types]).toEqual(expect.arrayContaining(["PERSON", "ORGANIZATION"]));
    // Gleaning found what the first pass left out (it stops after six names a passage).
    const gleaned = await db.graphExtraction.findMany({ where: { nodeIndexId: index.id } });
    expect(gleaned.some((g) => (g.entities as unknown[]).length > 6)).toBe(true);
    // The model said "Lovelace" is Ada Lovelace: one entity.
    expect(await db.graphEntity.count({ where: { nodeIndexId: index.id, key: "lovelace" } })).toBe(0);
    expect(await db.graphEntity.count({ where: { nodeIndexId: index.id, key: "ada lovelace" } })).toBe(1);
    const summary = await db.graphCommunity.findFirstOrThrow({
      where: { nodeIndexId: index.id, summary: { not: "" } },
    });
    expect(summary.title).toMatch(/ & /);
    const estimate = graphRagBuilder.estimate({ chunks, chars: graphFixture().length, settings: {}, model: "m" });
    expect(estimate.calls).toBeGreaterThanOrEqual(2 * chunks);
    expect(graphRagBuilder.estimate({ chunks, chars: 9000, settings: {}, model: null })).toEqual({
      calls: 0,
      tokens: 0,
      model: null,
    });
    const items = await search(fixture.projectId, index.id, "What did Grace Hopper work on?");
    expect(items[0]!.text).toContain("Grace Hopper");
  });

  it("a build that reaches the budget stops with its checkpoint, and a larger budget resumes it", async () => {
    withModel(true);
    setRuntimeEnv("LLM_MODEL", "stand-in-budget");
    const { db } = await import("../db");
    const { ensureIndex, advanceIndex } = await import("../flows/node-indexes/service");
    // The same build from zero (previous test, same documents, another model id) spent this:
    const fresh = (
      await db.flowNodeIndex.findFirstOrThrow({ where: { projectId: fixture.projectId, model: "stand-in-graph" } })
    ).usage as { calls: number; tokensIn: number; tokensOut: number };
    const budget = Math.round((fresh.tokensIn + fresh.tokensOut) * 0.5);
    const index = await ensureIndex(fixture.projectId, "graph-rag", {}, fixture.chunkSetIds);
    const sent = graphRequests().length;
    await expect(async () => {
      for (;;) if ((await advanceIndex(index.id, budget)).done) break;
    }).rejects.toThrow(/token budget of [\d,]+ tokens is reached/);
    const stopped = await db.flowNodeIndex.findUniqueOrThrow({ where: { id: index.id } });
    expect(stopped.status).toBe("building");
    // Extractions are kept per chunk as they are made: the checkpoint within a batch.
    const kept = await db.graphExtraction.count({ where: { nodeIndexId: index.id } });
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan((stopped.counts as { total_chunks?: number }).total_chunks ?? Infinity);
    expect((stopped.usage as { calls: number }).calls).toBe(graphRequests().length - sent);
    await build(fixture.projectId, fixture.chunkSetIds);
    // Resumed, not restarted: only the chunk cut between its two calls is asked again.
    const total = graphRequests().length - sent;
    expect(total).toBeGreaterThanOrEqual(fresh.calls);
    expect(total).toBeLessThanOrEqual(fresh.calls + 1);
    setRuntimeEnv("LLM_MODEL", "stand-in-graph");
  });

  it("another project's search never reaches this index", async () => {
    withModel(false);
    const { ensureProject } = await import("../projects/service");
    const { index } = await build(fixture.projectId, fixture.chunkSetIds);
    const other = await ensureProject("graph-other");
    expect(await search(other.id, index.id, "Ada Lovelace")).toEqual([]);
  });
});

describe.runIf(existsSync(path.join(CORPUS, "book-war-and-peace-1p.txt")))("corpus documents", () => {
  it("War and Peace, page one: its people, model-free and with the stand-in model", async () => {
    const content = readFileSync(path.join(CORPUS, "book-war-and-peace-1p.txt"), "utf8");
    const html = readFileSync(path.join(CORPUS, "ideas-page.html"), "utf8");
    const corpus = await indexed("graph-corpus", [
      { fileName: "book-war-and-peace-1p.txt", content },
      { fileName: "ideas-page.html", content: html },
    ]);
    const { db } = await import("../db");
    for (const model of [false, true]) {
      withModel(model);
      const { index, ms, steps } = await build(corpus.projectId, corpus.chunkSetIds);
      const counts = index.counts as Record<string, number>;
      process.stderr.write(
        `graph-rag corpus build (${model ? "stand-in model" : "model-free"}): ${ms} ms, ${steps} steps, ${JSON.stringify(counts)}\n`,
      );
      expect(counts.total_entities).toBeGreaterThan(10);
      expect(counts.total_relationships).toBeGreaterThan(10);
      expect(counts.total_communities).toBeGreaterThan(0);
      const names = (await db.graphEntity.findMany({ where: { nodeIndexId: index.id } })).map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(["Anna Pavlovna"]));
      const items = await search(corpus.projectId, index.id, "Who is Anna Pavlovna?");
      expect(items[0]!.fileName).toBe("book-war-and-peace-1p.txt");
    }
  });
});
