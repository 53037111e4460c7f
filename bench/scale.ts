import pg from "pg";
import { buildSearchIndexes, copyChunks, dropSearchIndexes } from "./retrieval-seed";
import { loadSciFact } from "./scifact";
import { fmt, percentile, table, time } from "./stats";

/**
 * The scale point: one project grown to BENCH_SCALE_CHUNKS chunks on the embedded Postgres (default 250,000: the
 * largest point this two-core machine completes; a 1,000,000 load had reached 572k chunks after 35 minutes, slowing,
 * with 6.9 GB of WAL, since PGlite writes through one single-threaded backend), as
 * copies of SciFact documents indexed by the pipeline (synthetic text without ../shared). Printed: load time, HNSW
 * and BM25 build times, table and index sizes, p50/p95 of each search type through the retrieval function, recall@10
 * of the HNSW index against exact search, and the bench process's peak memory (PGlite runs inside it).
 */

const QUERIES = 50;
const EXACT_QUERIES = 20;
const TEMPLATE_DOCS = 2000;

export const benchScale = async ({ databaseUrl }: { databaseUrl: string }) => {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const target = Number(process.env.BENCH_SCALE_CHUNKS ?? 250_000);
  const { db } = await import("@/server/db");
  const { indexDocuments } = await import("@/server/testing/index-documents");
  const { getEmbedder } = await import("@/server/providers/embedding");
  const { ensureEmbeddingIndex, hnswIndexSql, toVectorLiteral } = await import("@/server/retrieval/embedding-index");
  const { BM25_INDEX } = await import("@/server/retrieval/keyword-engine");
  const { retrieve } = await import("@/server/retrieval/retrieve");
  const { SEARCH_TYPES } = await import("@/server/retrieval/search-type.schema");
  const { searchSql } = await import("@/server/retrieval/vector-search");

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 1000);
  const sf = loadSciFact();
  const docs = (sf?.docs ?? []).slice(0, TEMPLATE_DOCS).map((d) => ({
    fileName: `scifact-${d.id}.md`,
    content: `# ${d.title}\n\n${d.text}\n`,
  }));
  const queries = sf?.queries.map((q) => q.text) ?? ["granite quarry saws", "fossils in limestone beds"];
  const template = await (await import("@/server/projects/service")).ensureProject(`scale-template-${Date.now()}`);
  const project = await (await import("@/server/projects/service")).ensureProject(`scale-${Date.now()}`);
  const index = await ensureEmbeddingIndex(getEmbedder());
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await indexDocuments({
      projectId: template.id,
      documents: docs.length
        ? docs
        : Array.from({ length: TEMPLATE_DOCS }, (_, i) => ({
            fileName: `synthetic-${i}.md`,
            content: `# Report ${i}\n\n${"granite quarry joint bedding fossil saw block ".repeat(40 + (i % 20))}\n`,
          })),
    });
    await dropSearchIndexes({ databaseUrl, index });
    let chunks = 0;
    let loadMs = 0;
    let failure: string | null = null;
    try {
      [chunks, loadMs] = await time(() =>
        copyChunks({ databaseUrl, projectId: project.id, templateProjectId: template.id, total: target }),
      );
    } catch (error) {
      failure = `loading stopped: ${error instanceof Error ? error.message : String(error)}`;
      chunks = Number(
        (await client.query("SELECT count(*) AS n FROM chunks WHERE project_id = $1", [project.id])).rows[0].n,
      );
    }
    say(`scale: ${chunks} chunks loaded in ${fmt(loadMs / 1000)} s${failure ? ` (${failure})` : ""}`);
    const built = await buildSearchIndexes({ databaseUrl, index });
    say(`scale: HNSW index built in ${fmt(built.hnswMs / 1000)} s, BM25 in ${fmt(built.bm25Ms / 1000)} s`);
    const hnswName = /INDEX IF NOT EXISTS "([^"]+)"/.exec(hnswIndexSql(index).sql)![1]!;
    const { rows: sizes } = await client.query(
      `SELECT pg_total_relation_size('chunks') AS total, pg_relation_size('chunks') AS heap,
              pg_relation_size($1::regclass) AS hnsw, pg_relation_size($2::regclass) AS bm25`,
      [hnswName, BM25_INDEX],
    );
    const mb = (bytes: unknown) => fmt(Number(bytes) / 2 ** 20, 0);

    const latency: (string | number)[][] = [["search_type", "p50 ms", "p95 ms"]];
    for (const searchType of SEARCH_TYPES) {
      const ms: number[] = [];
      for (const query of queries.slice(0, QUERIES)) {
        ms.push((await time(() => retrieve({ projectId: project.id, query, searchType, topK: 10 })))[1]);
      }
      latency.push([searchType, fmt(percentile(ms, 50)), fmt(percentile(ms, 95))]);
    }

    // recall@10 of the HNSW scan against an exact scan (the distance plus zero: no index can serve that order), by
    // distance as ann-benchmarks counts it: a result within 1e-3 of the 10th exact distance is a true neighbour. The
    // copies of a template chunk lie at near-equal distances from a query, so counting ids would call a tie a miss.
    // Measured at each hnsw.ef_search of BENCH_SCALE_EF_SEARCH (100 is what Quarry's connections use).
    const efSearch = (process.env.BENCH_SCALE_EF_SEARCH ?? "40,100,200,400")
      .split(",")
      .map(Number)
      .filter((n) => n > 0);
    const probes: { query: string; literal: string; threshold: number; truth: Set<string> }[] = [];
    const exactMs: number[] = [];
    for (const query of queries.slice(0, EXACT_QUERIES)) {
      const [vector] = await getEmbedder().embed([query]);
      const literal = toVectorLiteral(vector!);
      const [exact, took] = await time(() =>
        client.query<{ id: string; distance: number }>(
          `SELECT id, (embedding::vector(${index.dimension}) <=> $3::vector(${index.dimension})) + 0 AS distance
           FROM chunks WHERE project_id = $1 AND embedding_index_id = $2 ORDER BY 2 LIMIT 10`,
          [project.id, index.id, literal],
        ),
      );
      exactMs.push(took);
      const threshold = Number(exact.rows.at(-1)?.distance ?? 0) + 1e-3;
      probes.push({ query, literal, threshold, truth: new Set(exact.rows.map((r) => r.id)) });
    }
    const recall: (string | number)[][] = [["hnsw.ef_search", "recall@10 by distance", "by ids", "p50 ms", "p95 ms"]];
    for (const ef of efSearch) {
      await client.query(`SET hnsw.ef_search = ${ef}`);
      await client.query("SET hnsw.iterative_scan = relaxed_order");
      let found = 0;
      let sameIds = 0;
      const ms: number[] = [];
      for (const probe of probes) {
        const sql = searchSql({
          projectId: project.id,
          mode: "vector",
          vector: { literal: probe.literal, index },
          keyword: { engine: "bm25", text: probe.query },
          vectorWeight: 1,
          pool: 10,
          limit: 10,
          distinctDocuments: false,
        });
        const [result, took] = await time(() =>
          client.query<{ id: string | null; similarity: number | null }>(sql.text, sql.values as unknown[]),
        );
        ms.push(took);
        const rows = result.rows.filter((r) => r.id && r.similarity !== null);
        found += rows.filter((r) => 1 - Number(r.similarity) <= probe.threshold).length / 10;
        sameIds += rows.filter((r) => probe.truth.has(r.id!)).length / Math.max(1, probe.truth.size);
      }
      recall.push([
        ef,
        fmt(found / probes.length, 3),
        fmt(sameIds / probes.length, 3),
        fmt(percentile(ms, 50)),
        fmt(percentile(ms, 95)),
      ]);
    }
    await client.query("RESET hnsw.ef_search");
    return [
      `Scale: ${chunks} chunks in one project${failure ? `, short of ${target}: ${failure}` : ""}`,
      table([
        ["load s", "HNSW build s", "BM25 build s", "table+indexes MB", "heap MB", "HNSW MB", "BM25 MB", "peak RSS MB"],
        [
          fmt(loadMs / 1000),
          fmt(built.hnswMs / 1000),
          fmt(built.bm25Ms / 1000),
          mb(sizes[0].total),
          mb(sizes[0].heap),
          mb(sizes[0].hnsw),
          mb(sizes[0].bm25),
          fmt(peakRss / 2 ** 20, 0),
        ],
      ]),
      "",
      `Search latency through the retrieval function (topK 10, ${QUERIES} queries)`,
      table(latency),
      "",
      `HNSW recall@10 against exact search (${probes.length} queries; by distance as ann-benchmarks counts it: within ` +
        `1e-3 of the 10th; exact scan p50 ${fmt(percentile(exactMs, 50))} ms), raw vector statement per ef_search`,
      table(recall),
    ].join("\n");
  } finally {
    clearInterval(sampler);
    await client.end();
    await db.project.delete({ where: { id: project.id } });
    await db.project.delete({ where: { id: template.id } });
  }
};
