import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDatabase, type TestDatabase } from "../../testing/test-database";
import { textDoc } from "../../testing/fixtures";

/**
 * The chunk and embed steps of a large build on the embedded Postgres: the chunk step writes drafts, the embed step
 * moves them into `chunks` with their vectors, so each chunk enters `chunks` and its indexes once (an INSERT then an
 * UPDATE of the vector indexed every chunk twice: BM25 counted 200,000 documents for a 100 MiB text's 100,000
 * chunks). A retried embed step resumes: drafts moved already are not moved again, chunks left without a vector are
 * embedded.
 */

let database: TestDatabase;
let projectId = "";

const load = async () => ({
  db: (await import("../../db")).db,
  ...(await import("./chunk")),
  ...(await import("./embed")),
  ...(await import("../../chunk-sets/drafts")),
  ...(await import("../../testing/index-documents")),
  ...(await import("../../retrieval/keyword-engine")),
});

beforeAll(async () => {
  database = await startTestDatabase({ keywordEngine: true });
  const { ensureProject } = await import("../../projects/service");
  projectId = (await ensureProject("chunk-embed")).id;
}, 120_000);

afterAll(async () => database?.stop());

/** 1,200 paragraphs: about 90 chunks, more than one embedding batch. */
const document = { fileName: "strata.txt", content: textDoc(1200, "sandstone") };

const counts = async (buildId: string) => {
  const { db } = await load();
  const [row] = await db.$queryRaw<{ drafts: number; chunks: number; vectors: number; positions: number }[]>`
    SELECT (SELECT count(*)::int FROM chunk_drafts WHERE build_id = ${buildId}::uuid) AS drafts,
      (SELECT count(*)::int FROM chunks WHERE build_id = ${buildId}::uuid) AS chunks,
      (SELECT count(*)::int FROM chunks WHERE build_id = ${buildId}::uuid AND embedding IS NOT NULL) AS vectors,
      (SELECT count(DISTINCT position)::int FROM chunks WHERE build_id = ${buildId}::uuid) AS positions`;
  return row!;
};

/**
 * How many documents the BM25 index holds (pg_textsearch counts every entry it was given). A Postgres without
 * pg_textsearch (the real Postgres 15 run) searches full text instead: there, the chunks with a tsvector.
 */
const bm25Documents = async () => {
  const { db, BM25_INDEX, keywordEngine } = await load();
  if ((await keywordEngine()) === "fulltext") {
    const [counted] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM chunks WHERE tsv IS NOT NULL`;
    return counted!.n;
  }
  const [row] = await db.$queryRawUnsafe<{ summary: string }[]>(
    `SELECT bm25_summarize_index('${BM25_INDEX}')::text AS summary`,
  );
  const match = /total_docs[^0-9]*([0-9]+)/i.exec(row!.summary);
  return Number(match?.[1]);
};

describe("chunk and embed steps", () => {
  it("writes drafts, then moves each chunk into chunks once, with its vector", async () => {
    const { storeParsedDocument, chunkBuild, embedBuild, db } = await load();
    const before = await bm25Documents();
    const { buildId } = await storeParsedDocument(projectId, document);
    const chunked = await chunkBuild(buildId);
    expect(chunked!.chunks).toBeGreaterThan(64);
    expect(await counts(buildId)).toEqual({ drafts: chunked!.chunks, chunks: 0, vectors: 0, positions: 0 });

    const embedded = await embedBuild(buildId);
    expect(embedded).toEqual({ embedded: chunked!.chunks, failedBatches: 0 });
    const n = chunked!.chunks;
    expect(await counts(buildId)).toEqual({ drafts: 0, chunks: n, vectors: n, positions: n });
    expect(await bm25Documents()).toBe(before + n);
    const set = await db.chunkSet.findUniqueOrThrow({ where: { buildId } });
    expect(set.chunkCount).toBe(n);
    expect(set.embeddingIndexId).not.toBeNull();
  });

  it("a retried embed step embeds what an earlier attempt left without a vector and moves the rest", async () => {
    const { storeParsedDocument, chunkBuild, embedBuild, draftIdsOfBuild, moveDrafts, embeddingTarget } = await load();
    const { buildId } = await storeParsedDocument(projectId, { ...document, fileName: "strata-2.txt" });
    const n = (await chunkBuild(buildId))!.chunks;
    // An earlier attempt moved a batch the provider refused (no vectors), then stopped.
    const { index } = await embeddingTarget(projectId);
    const refused = (await draftIdsOfBuild(buildId)).slice(0, 16);
    await moveDrafts({ indexId: index.id, ids: refused });
    expect(await counts(buildId)).toEqual({ drafts: n - 16, chunks: 16, vectors: 0, positions: 16 });
    // A move retried after it committed writes nothing twice.
    await moveDrafts({ indexId: index.id, ids: refused });

    expect(await embedBuild(buildId)).toEqual({ embedded: n, failedBatches: 0 });
    expect(await counts(buildId)).toEqual({ drafts: 0, chunks: n, vectors: n, positions: n });
  });

  it("a chunk step that starts again replaces the drafts and chunks of the earlier attempt", async () => {
    const { storeParsedDocument, chunkBuild, draftIdsOfBuild, moveDrafts, embeddingTarget } = await load();
    const { buildId } = await storeParsedDocument(projectId, { ...document, fileName: "strata-3.txt" });
    const n = (await chunkBuild(buildId))!.chunks;
    const { index } = await embeddingTarget(projectId);
    await moveDrafts({ indexId: index.id, ids: (await draftIdsOfBuild(buildId)).slice(0, 5) });
    expect((await chunkBuild(buildId))!.chunks).toBe(n);
    expect(await counts(buildId)).toEqual({ drafts: n, chunks: 0, vectors: 0, positions: 0 });
  });
});
