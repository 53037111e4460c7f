import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { LOCAL_RERANK_MODEL } from "../providers/rerank";
import { markdownDoc, textDoc } from "../testing/fixtures";
import { expectedKeywordEngine } from "../testing/scratch-database";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";
import { SEARCH_TYPES } from "./search-type.schema";

/**
 * The retrieval function on the embedded Postgres (BM25 and HNSW), with documents indexed by the pipeline's own
 * steps: the four search types, scores, scopes, tenant isolation, pools that follow topK, the full-text fallback and
 * a chunk set of another embedding model. On the real-Postgres run (Postgres 15) the keyword side is the full-text
 * fallback throughout.
 */

const engine = expectedKeywordEngine();
let server: TestDatabase;
let projectId = "";
let otherProjectId = "";
const sources: Record<string, string> = {};

const feldspar =
  "# Minerals\n\nAn overview of the minerals found in the quarry.\n\n## Feldspar\n\n" +
  Array.from(
    { length: 30 },
    (_, i) => `Note ${i + 1}: the pink crystals in the granite weather slowly into clay, over many centuries of rain.`,
  ).join("\n\n");
const marble =
  "# Marble polishing\n\nSlabs are ground with coarse abrasives, then honed and buffed with tin oxide until they shine.\n";

const load = () => import("./retrieve");

beforeAll(async () => {
  server = await startTestDatabase();
  const { setupKeywordEngine } = await import("./keyword-engine");
  expect(await setupKeywordEngine()).toMatchObject({ engine });
  const { ensureProject } = await import("../projects/service");
  const { indexDocuments } = await import("../testing/index-documents");
  projectId = (await ensureProject("retrieval")).id;
  otherProjectId = (await ensureProject("other tenant")).id;
  const indexed = await indexDocuments({
    projectId,
    documents: [
      { fileName: "granite.md", content: markdownDoc() },
      { fileName: "marble.md", content: marble },
      { fileName: "minerals.md", content: feldspar },
      { fileName: "limestone.txt", content: textDoc(1100) },
    ],
  });
  for (const s of indexed) sources[s.fileName] = s.sourceId;
  await indexDocuments({
    projectId: otherProjectId,
    documents: [{ fileName: "secret.md", content: "# Wire saws\n\nDiamond wire saws with beads cut granite blocks." }],
  });
}, 240_000);

afterAll(async () => server?.stop());

describe("retrieve", () => {
  it("answers every search type with scores in [0, 1], best first, and says what produced them", async () => {
    const { retrieve } = await load();
    const rankings: Record<string, string[]> = {};
    for (const searchType of SEARCH_TYPES) {
      const result = await retrieve({ projectId, query: "wire saws with diamond beads", searchType });
      expect(result).toMatchObject({ searchType, effectiveSearchType: searchType, keywordEngine: engine });
      expect(result.message).toBeUndefined();
      expect(result.embeddingModel).toBe(searchType === "keyword" ? null : "quarry-hash-256-v1");
      expect(result.reranker).toBe(searchType === "semantic" ? LOCAL_RERANK_MODEL : null);
      const scores = result.chunks.map((c) => c.score);
      expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      expect(result.chunks[0]).toMatchObject({ fileName: "granite.md", sourceId: sources["granite.md"] });
      expect(result.chunks[0]!.text).toMatch(/wire saws/i);
      expect(result.chunks.every((c) => c.chunkSetId && c.chunkId && c.elementIds.length > 0)).toBe(true);
      if (searchType === "semantic") expect(result.chunks[0]!.scores.rerank).not.toBeNull();
      rankings[searchType] = result.chunks.map((c) => `${c.chunkId}:${c.score}`);
    }
    // Different methods, different rankings (order or scores).
    expect(new Set(Object.values(rankings).map((r) => r.join())).size).toBe(SEARCH_TYPES.length);
  });

  it("finds a chunk by its section heading and document title even when its text never says them", async () => {
    const { retrieve } = await load();
    const result = await retrieve({ projectId, query: "feldspar", searchType: "keyword", topK: 10 });
    expect(result.chunks.length).toBeGreaterThanOrEqual(2);
    expect(result.chunks.every((c) => c.fileName === "minerals.md" && c.heading === "Feldspar")).toBe(true);
    expect(result.chunks.some((c) => !/feldspar/i.test(c.text))).toBe(true);
    expect(result.chunks[0]!.title).toBe("Minerals");
    // No Title element: the file name without its extension is the title.
    const limestone = await retrieve({ projectId, query: "limestone beds", searchType: "keyword", topK: 1 });
    expect(limestone.chunks[0]).toMatchObject({ fileName: "limestone.txt", title: "limestone" });
  });

  it("takes candidate pools from topK: up to 100 chunks, no fixed cap", async () => {
    const { retrieve } = await load();
    for (const searchType of ["keyword", "similarity", "hybrid"] as const) {
      const result = await retrieve({ projectId, query: "fossils in the limestone beds", searchType, topK: 100 });
      expect(result.chunks).toHaveLength(100);
      expect(new Set(result.chunks.map((c) => c.chunkId)).size).toBe(100);
    }
  });

  it("applies scoreThreshold, the retrievalQuery template and distinct documents", async () => {
    const { retrieve } = await load();
    const all = await retrieve({ projectId, query: "granite quarry", topK: 20 });
    const above = await retrieve({ projectId, query: "granite quarry", topK: 20, scoreThreshold: 0.5 });
    expect(above.chunks.length).toBeLessThan(all.chunks.length);
    expect(above.chunks.every((c) => c.score >= 0.5)).toBe(true);
    const templated = await retrieve({
      projectId,
      query: "polishing",
      retrievalQuery: "marble slab {query} abrasives",
    });
    expect(templated.query).toBe("marble slab polishing abrasives");
    expect(templated.chunks[0]!.fileName).toBe("marble.md");
    const query = "granite quarry limestone marble slabs";
    const distinct = await retrieve({ projectId, query, topK: 10, distinctDocuments: true });
    expect(new Set(distinct.chunks.map((c) => c.sourceId)).size).toBe(distinct.chunks.length);
    expect(distinct.chunks.length).toBe(4);
  });

  it("scopes by sources and by chunk sets, and never crosses projects", async () => {
    const { retrieve } = await load();
    const bySource = await retrieve({ projectId, query: "granite", sourceIds: [sources["minerals.md"]!] });
    expect(bySource.chunks.length).toBeGreaterThan(0);
    expect(bySource.chunks.every((c) => c.sourceId === sources["minerals.md"])).toBe(true);
    const set = bySource.chunks[0]!.chunkSetId;
    const bySet = await retrieve({ projectId, query: "pink crystals", chunkSetIds: [set], searchType: "keyword" });
    expect(bySet.chunks.every((c) => c.chunkSetId === set)).toBe(true);
    const { db } = await import("../db");
    const foreign = await db.chunkSet.findFirstOrThrow({ where: { projectId: otherProjectId } });
    expect((await retrieve({ projectId, query: "wire saws", chunkSetIds: [foreign.id] })).chunks).toEqual([]);
    for (const searchType of SEARCH_TYPES) {
      const result = await retrieve({ projectId, query: "diamond wire saws beads granite", searchType, topK: 100 });
      expect(result.chunks.some((c) => c.fileName === "secret.md")).toBe(false);
    }
    const other = await retrieve({ projectId: otherProjectId, query: "wire saws" });
    expect(other.chunks.map((c) => c.fileName)).toEqual(["secret.md"]);
  });

  it("says when nothing in scope is indexed", async () => {
    const { retrieve, UNINDEXED_MESSAGE } = await load();
    const { ensureProject } = await import("../projects/service");
    const empty = await ensureProject("empty");
    expect(await retrieve({ projectId: empty.id, query: "granite" })).toMatchObject({
      chunks: [],
      message: UNINDEXED_MESSAGE,
    });
  });

  it("searches by keyword alone, and says so, while a chunk set in scope holds another model's vectors", async () => {
    const { retrieve } = await load();
    const { db } = await import("../db");
    const old = await db.embeddingIndex.create({ data: { provider: "openai", model: "old-model", dimension: 8 } });
    const set = await db.chunkSet.findFirstOrThrow({ where: { sourceId: sources["marble.md"] } });
    await db.chunkSet.update({ where: { id: set.id }, data: { embeddingIndexId: old.id } });
    try {
      for (const searchType of ["similarity", "hybrid"] as const) {
        const result = await retrieve({ projectId, query: "wire saws with diamond beads", searchType });
        expect(result).toMatchObject({ effectiveSearchType: "keyword", embeddingModel: null });
        expect(result.message).toMatch(/1 chunk set\(s\) in scope hold vectors of another embedding model/);
        expect(result.chunks[0]!.fileName).toBe("granite.md");
        expect(result.chunks.every((c) => c.scores.similarity === null)).toBe(true);
      }
      // Out of scope, the other model's set does not matter.
      const scoped = await retrieve({ projectId, query: "wire saws", sourceIds: [sources["granite.md"]!] });
      expect(scoped).toMatchObject({ effectiveSearchType: "hybrid" });
    } finally {
      await db.chunkSet.update({ where: { id: set.id }, data: { embeddingIndexId: set.embeddingIndexId } });
    }
  });

  it("falls back to Postgres full text when BM25 is switched off", async () => {
    const { retrieve } = await load();
    const { setupKeywordEngine } = await import("./keyword-engine");
    setRuntimeEnv("QUARRY_KEYWORD_ENGINE", "fulltext");
    try {
      expect(await setupKeywordEngine()).toMatchObject({ engine: "fulltext" });
      for (const searchType of ["keyword", "hybrid"] as const) {
        const result = await retrieve({ projectId, query: "wire saws with diamond beads", searchType });
        expect(result.keywordEngine).toBe("fulltext");
        expect(result.chunks[0]!.fileName).toBe("granite.md");
        expect(result.chunks.every((c) => c.score >= 0 && c.score <= 1)).toBe(true);
      }
      const heading = await retrieve({ projectId, query: "feldspar", searchType: "keyword" });
      expect(heading.chunks[0]!.heading).toBe("Feldspar");
    } finally {
      setRuntimeEnv("QUARRY_KEYWORD_ENGINE", "auto");
      expect(await setupKeywordEngine()).toMatchObject({ engine });
    }
  });
});
