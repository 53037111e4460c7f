import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatModel } from "../providers/chat";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";

/**
 * The RAPTOR builder on the embedded Postgres, over documents indexed by the pipeline's own steps: tree sizes and the
 * contract's metric formulas (model-free and with the stand-in chat model), `max_level`, a build interrupted and
 * resumed from its stored checkpoint, the collapsed-tree search, plain searches that never see a summary, and
 * tenant isolation. Real corpus documents (../shared/corpus) when present.
 */

let database: TestDatabase;
let chat: FakeChatServer;
let projectId = "";
let otherProjectId = "";
let chunkSetIds: string[] = [];
let counter = 0;

const TOPICS = [
  ["granite", "quarry", "feldspar", "crystals", "blasting"],
  ["harbour", "tides", "vessels", "anchors", "lighthouse"],
  ["orchard", "apples", "pruning", "blossom", "cider"],
  ["glacier", "moraine", "crevasse", "icefield", "meltwater"],
  ["violin", "bowing", "rosin", "luthier", "concerto"],
  ["bakery", "sourdough", "ovens", "flour", "proving"],
];

/** A document of `chunks` × ~2,000 characters on one topic, each paragraph with its own numbers. */
const topicDoc = (topic: string[], chunks: number, doc: number) =>
  `# ${topic[0]} report ${doc}\n\n` +
  Array.from({ length: chunks * 9 }, (_, i) => {
    const [a, b, c, d, e] = topic;
    return `Section ${doc}.${i}: the ${a} team measured ${b} at site ${doc * 100 + i} and found ${(i * 7) % 97} ${c}. The ${d} and the ${e} were logged in the ${a} register for year ${1990 + (i % 30)}.`;
  }).join("\n\n");

const load = async () => ({
  builder: (await import("./builder")).raptorBuilder,
  db: (await import("../db")).db,
  views: { ...(await import("../flows/node-results")), ...(await import("../public-api/v1/flows/mappers")) },
});

/** An index row (as the flow service makes one) built to the end, step by step from its stored checkpoint. */
const build = async (opts: { maxLevel: number; model?: ChatModel | null; sets?: string[]; crashAt?: number }) => {
  const { builder, db } = await load();
  const sets = opts.sets ?? chunkSetIds;
  const index = await db.flowNodeIndex.create({
    data: {
      projectId,
      kind: "raptor-rag",
      key: `test-${++counter}`,
      chunkSetIds: sets,
      config: { max_level: opts.maxLevel },
      model: opts.model?.id ?? null,
    },
  });
  const input = { id: index.id, projectId, chunkSetIds: sets, settings: { max_level: opts.maxLevel } };
  let checkpoint: Record<string, unknown> = {};
  for (let step = 0; step < 200; step++) {
    const result = await builder.advance({ index: input, checkpoint, model: opts.model ?? null });
    // A crash after the step wrote its rows but before its checkpoint was stored: the step is done again.
    if (step === opts.crashAt) continue;
    checkpoint = result.checkpoint;
    if (result.done) return { id: index.id, counts: result.counts! };
  }
  throw new Error("the build did not finish");
};

const tree = async (indexId: string) => {
  const { db } = await load();
  return db.chunk.findMany({
    where: { projectId, nodeIndexId: indexId },
    orderBy: [{ level: "asc" }, { position: "asc" }],
    select: { id: true, level: true, position: true, text: true, sourceId: true, metadata: true },
  });
};
const childrenOf = (m: unknown) => (m as { raptor: { children: string[] } }).raptor.children;

beforeAll(async () => {
  database = await startTestDatabase({ keywordEngine: true });
  chat = await startFakeChatServer();
  const { ensureProject } = await import("../projects/service");
  const { indexDocuments } = await import("../testing/index-documents");
  projectId = (await ensureProject("raptor")).id;
  otherProjectId = (await ensureProject("raptor other tenant")).id;
  const indexed = await indexDocuments({
    projectId,
    documents: Array.from({ length: 12 }, (_, i) => ({
      fileName: `${TOPICS[i % 6]![0]}-${i}.md`,
      content: topicDoc(TOPICS[i % 6]!, 10, i),
    })),
  });
  const { sourceChunkSets } = await import("../chunk-sets/service");
  chunkSetIds = (
    await sourceChunkSets(
      projectId,
      indexed.map((s) => s.sourceId),
    )
  ).sort();
}, 300_000);

afterAll(async () => {
  await chat?.close();
  await database?.stop();
});

let modelFree: { id: string; counts: Record<string, number | null> };

describe("model-free tree", () => {
  it("clusters every leaf once per level, up to max_level, with the counts the metrics are computed from", async () => {
    const { db, views } = await load();
    modelFree = await build({ maxLevel: 3 });
    const leaves = await db.chunk.count({ where: { projectId, chunkSetId: { in: chunkSetIds }, nodeIndexId: null } });
    expect(leaves).toBeGreaterThan(100);
    const nodes = await tree(modelFree.id);
    const levels = Math.max(...nodes.map((n) => n.level));
    expect(modelFree.counts).toEqual({
      total_chunks: leaves,
      tree_levels: levels,
      total_clusters: nodes.length,
      total_summaries: nodes.length,
    });
    expect(levels).toBe(3);
    // Each level's children are exactly the level below, each once; the top is not yet one cluster at level 3.
    for (let level = 1; level <= levels; level++) {
      const below =
        level === 1
          ? (await db.chunk.findMany({ where: { chunkSetId: { in: chunkSetIds }, nodeIndexId: null } })).map(
              (c) => c.id,
            )
          : nodes.filter((n) => n.level === level - 1).map((n) => n.id);
      const children = nodes.filter((n) => n.level === level).flatMap((n) => childrenOf(n.metadata));
      expect(children.sort()).toEqual(below.sort());
      for (const n of nodes.filter((x) => x.level === level))
        expect(childrenOf(n.metadata).length).toBeLessThanOrEqual(10);
    }
    // Extractive: every number of a summary is in the documents' text.
    const text = (await db.chunk.findMany({ where: { chunkSetId: { in: chunkSetIds }, nodeIndexId: null } }))
      .map((c) => c.text)
      .join(" ");
    for (const n of nodes) for (const num of n.text.match(/\d+/g) ?? []) expect(text).toContain(num);
    // The contract's formulas on these counts.
    const dto = views.toNodeDto(
      views.nodeViewOf(
        {
          id: "raptor-rag-1",
          type: "raptor-rag",
          position: { x: 0, y: 0 },
          style: { height: 1, width: 1 },
          data: { name: "r", config: {} },
        },
        { counts: modelFree.counts as Record<string, number> },
        undefined,
      ),
    ) as unknown as { data: { result: Record<string, number | null> } };
    const c = modelFree.counts as Record<string, number>;
    expect(dto.data.result).toMatchObject({
      clustering_ratio: Math.round((c.total_clusters! / c.total_chunks!) * 1000) / 1000,
      summarization_ratio: 1,
      tree_density: Math.round((c.total_summaries! / c.tree_levels!) * 1000) / 1000,
    });
  });

  it("stops at max_level 2 although the level below still has several clusters", async () => {
    const built = await build({ maxLevel: 2 });
    const nodes = await tree(built.id);
    expect(built.counts.tree_levels).toBe(2);
    expect(nodes.filter((n) => n.level === 2).length).toBeGreaterThan(1);
    expect(Math.max(...nodes.map((n) => n.level))).toBe(2);
  });

  it("a build redone from its stored checkpoint after a crash gives the same tree", async () => {
    const resumed = await build({ maxLevel: 3, crashAt: 2 });
    const again = await build({ maxLevel: 3, crashAt: 5 });
    const shape = async (id: string) =>
      (await tree(id)).map((n) => ({
        level: n.level,
        position: n.position,
        text: n.text,
        n: childrenOf(n.metadata).length,
      }));
    const reference = await shape(modelFree.id);
    expect(await shape(resumed.id)).toEqual(reference);
    expect(await shape(again.id)).toEqual(reference);
    expect(resumed.counts).toEqual(modelFree.counts);
  });
});

describe("search", () => {
  it("a graph built over chunk sets that hold a tree reads only the documents' chunks, not the summaries", async () => {
    const { db } = await load();
    const { graphRagBuilder } = await import("../graph-rag/builder");
    const index = await db.flowNodeIndex.create({
      data: { projectId, kind: "graph-rag", key: `test-${++counter}`, chunkSetIds, config: {}, model: null },
    });
    const input = { id: index.id, projectId, chunkSetIds, settings: graphRagBuilder.settings({}) };
    let checkpoint: Record<string, unknown> = {};
    let counts: Record<string, number | null> | undefined;
    for (let step = 0; step < 200 && !counts; step++) {
      const result = await graphRagBuilder.advance({ index: input, checkpoint, model: null });
      checkpoint = result.checkpoint;
      if (result.done) counts = result.counts;
    }
    expect(
      await db.chunk.count({ where: { chunkSetId: { in: chunkSetIds }, nodeIndexId: { not: null } } }),
    ).toBeGreaterThan(0);
    expect(counts?.total_chunks).toBe(modelFree.counts.total_chunks);
  });

  it("the tree's search returns summaries with their level and documents; plain searches never do", async () => {
    const { builder, db } = await load();
    const top = (await tree(modelFree.id)).filter((n) => n.level === 2)[0]!;
    const items = await builder.retrieve({ projectId, indexId: modelFree.id, query: top.text, topK: null });
    expect(items.length).toBe(10);
    const hit = items.find((i) => i.chunkId === top.id);
    expect(hit?.level).toBe(2);
    expect(items.every((i) => i.score >= 0 && i.score <= 1)).toBe(true);
    expect((hit!.metadata.raptor as { documents: string[] }).documents).toContain(hit!.sourceId);
    expect((await builder.retrieve({ projectId, indexId: modelFree.id, query: top.text, topK: 3 })).length).toBe(3);

    const { retrieve } = await import("../retrieval/retrieve");
    const summaryIds = new Set((await db.chunk.findMany({ where: { nodeIndexId: { not: null } } })).map((c) => c.id));
    for (const searchType of ["similarity", "keyword", "hybrid", "semantic"] as const) {
      for (const scope of [{ chunkSetIds }, {}, { sourceIds: [top.sourceId] }]) {
        const plain = await retrieve({ projectId, query: top.text, searchType, topK: 100, ...scope });
        expect(plain.chunks.length).toBeGreaterThan(0);
        expect(plain.chunks.filter((c) => summaryIds.has(c.chunkId))).toEqual([]);
        expect(plain.chunks.every((c) => c.level === undefined)).toBe(true);
      }
    }
    // Chunk counts of a dataset are the documents' chunks only.
    const { datasetCounts } = await import("../flows/counts");
    const leaves = await db.chunk.count({ where: { projectId, nodeIndexId: null } });
    const sources = [
      ...new Set(
        (await db.chunk.findMany({ where: { projectId }, select: { sourceId: true } })).map((c) => c.sourceId),
      ),
    ];
    expect((await datasetCounts(projectId, sources)).total_chunks).toBe(leaves);
  });

  it("another project's caller finds nothing in the tree", async () => {
    const { builder } = await load();
    expect(
      await builder.retrieve({ projectId: otherProjectId, indexId: modelFree.id, query: "granite", topK: 5 }),
    ).toEqual([]);
  });
});

describe("with the stand-in chat model", () => {
  it("one call per cluster, summaries from the passages, the same counts shape", async () => {
    const { openAiCompatibleModel } = await import("../providers/chat/openai-compatible");
    const model = openAiCompatibleModel({
      id: "stand-in",
      provider: "openai-compatible",
      baseUrl: chat.baseUrl,
      apiKey: "sk-test",
      nativeJsonSchema: false,
      contextTokens: null,
      timeoutMs: 30_000,
    });
    const before = chat.requests.length;
    const built = await build({ maxLevel: 3, model });
    const nodes = await tree(built.id);
    expect(chat.requests.length - before).toBe(built.counts.total_clusters);
    expect(nodes.every((n) => n.text.startsWith("The passages cover:"))).toBe(true);
    expect(built.counts).toMatchObject({ total_chunks: modelFree.counts.total_chunks, tree_levels: 3 });
  });

  it("drops a sentence whose number the passages do not hold", async () => {
    const { withoutInventedNumbers } = await import("./summarize");
    expect(
      withoutInventedNumbers("Site 12 had 40 crystals. Profits rose 300%. The team met.", ["site 12 had 40 crystals"]),
    ).toBe("Site 12 had 40 crystals. The team met.");
  });
});

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");
const CORPUS_DOCS = [
  "book-war-and-peace-1p.txt",
  "UDHR_first_article_all.txt",
  "example-docs-README.md",
  "fake-text.txt",
];

describe.runIf(existsSync(path.join(CORPUS, CORPUS_DOCS[0]!)))("real corpus documents", () => {
  it("builds a tree over them whose counts hold the same invariants", async () => {
    const { indexDocuments } = await import("../testing/index-documents");
    const { sourceChunkSets } = await import("../chunk-sets/service");
    const indexed = await indexDocuments({
      projectId,
      documents: CORPUS_DOCS.filter((f) => existsSync(path.join(CORPUS, f))).map((fileName) => ({
        fileName,
        content: readFileSync(path.join(CORPUS, fileName), "utf8"),
      })),
    });
    const sets = await sourceChunkSets(
      projectId,
      indexed.map((s) => s.sourceId),
    );
    const built = await build({ maxLevel: 3, sets });
    const nodes = await tree(built.id);
    expect(built.counts.total_chunks).toBeGreaterThan(0);
    expect(built.counts.total_summaries).toBe(nodes.length);
    expect(built.counts.tree_levels).toBe(nodes.length ? Math.max(...nodes.map((n) => n.level)) : 0);
    expect(built.counts.tree_levels).toBeLessThanOrEqual(3);
    const { db } = await load();
    const text = (await db.chunk.findMany({ where: { chunkSetId: { in: sets }, nodeIndexId: null } }))
      .map((c) => c.text)
      .join(" ");
    for (const n of nodes) for (const num of n.text.match(/\d+/g) ?? []) expect(text).toContain(num);
  });
});
