import pg from "pg";
import type { EmbeddingIndexRef } from "@/server/retrieval/embedding-index";
import type { KeywordEngine } from "@/server/retrieval/keyword-engine";
import { buildSearchIndexes, copyChunks, dropSearchIndexes, hnswName, keywordIndex } from "./retrieval-seed";
import { fmt, percentile, time } from "./stats";

/**
 * One database's scale point (bench/scale.ts): a project grown to `target` chunks from a template project, the search
 * indexes built, then sizes, search latency through the retrieval function and HNSW recall@10 against exact search.
 * The process's Prisma client and search pool must point at `databaseUrl` (DATABASE_URL), with its keyword engine
 * set up as the app does (setupKeywordEngine): the keyword index measured is that engine's (BM25, or the full-text
 * fallback's GIN index).
 */

const QUERIES = 50;
const EXACT_QUERIES = 20;

export type ScaleTarget = {
  /** Named in every row of the printed tables. */
  label: string;
  databaseUrl: string;
  templateId: string;
  index: EmbeddingIndexRef;
  engine: KeywordEngine;
};

export type ScaleFigures = {
  label: string;
  engine: KeywordEngine;
  chunks: number;
  failure: string | null;
  sizes: (string | number)[];
  latency: { searchType: string; p50: number; p95: number }[];
  exactP50: number;
  recall: { ef: number; byDistance: number; byIds: number; p50: number; p95: number }[];
  probes: number;
};

export const SCALE_QUERIES = QUERIES;
const say = (line: string) => process.stdout.write(`${line}\n`);
const mb = (bytes: unknown) => fmt(Number(bytes) / 2 ** 20, 0);

const load = async (target: ScaleTarget, projectId: string, total: number) => {
  const { databaseUrl, templateId } = target;
  try {
    const [chunks, ms] = await time(() => copyChunks({ databaseUrl, projectId, templateProjectId: templateId, total }));
    return { chunks, ms, failure: null };
  } catch (error) {
    const { db } = await import("@/server/db");
    const chunks = await db.chunk.count({ where: { projectId } });
    return { chunks, ms: NaN, failure: `loading stopped: ${error instanceof Error ? error.message : String(error)}` };
  }
};

const latencies = async (projectId: string, queries: string[]) => {
  const { retrieve } = await import("@/server/retrieval/retrieve");
  const { SEARCH_TYPES } = await import("@/server/retrieval/search-type.schema");
  const out: ScaleFigures["latency"] = [];
  for (const searchType of SEARCH_TYPES) {
    const ms: number[] = [];
    for (const query of queries.slice(0, QUERIES)) {
      ms.push((await time(() => retrieve({ projectId, query, searchType, topK: 10 })))[1]);
    }
    out.push({ searchType, p50: percentile(ms, 50), p95: percentile(ms, 95) });
  }
  return out;
};

/**
 * recall@10 of the HNSW scan against an exact scan (the distance plus zero: no index can serve that order), by
 * distance as ann-benchmarks counts it: a result within 1e-3 of the 10th exact distance is a true neighbour. The
 * copies of a template chunk lie at near-equal distances from a query, so counting ids would call a tie a miss.
 * Measured at each hnsw.ef_search of BENCH_SCALE_EF_SEARCH, on a connection with the app's search settings.
 */
const recallAt10 = async (client: pg.Client, projectId: string, target: ScaleTarget, queries: string[]) => {
  const { index, engine } = target;
  const { commonLexemes } = await import("@/server/retrieval/keyword-query");
  const { getEmbedder } = await import("@/server/providers/embedding");
  const { toVectorLiteral } = await import("@/server/retrieval/embedding-index");
  const { searchSql } = await import("@/server/retrieval/vector-search");
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
        [projectId, index.id, literal],
      ),
    );
    exactMs.push(took);
    const threshold = Number(exact.rows.at(-1)?.distance ?? 0) + 1e-3;
    probes.push({ query, literal, threshold, truth: new Set(exact.rows.map((r) => r.id)) });
  }
  const recall: ScaleFigures["recall"] = [];
  for (const ef of efSearch) {
    await client.query(`SET hnsw.ef_search = ${ef}`);
    let found = 0;
    let sameIds = 0;
    const ms: number[] = [];
    for (const probe of probes) {
      const sql = searchSql({
        projectId,
        mode: "vector",
        vector: { literal: probe.literal, index },
        // The statement keeps a keyword side (for chunk sets of another model), built for the engine as the app does.
        keyword:
          engine === "bm25"
            ? { engine, text: probe.query }
            : { engine, text: probe.query, common: await commonLexemes() },
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
    const n = Math.max(1, probes.length);
    recall.push({ ef, byDistance: found / n, byIds: sameIds / n, p50: percentile(ms, 50), p95: percentile(ms, 95) });
  }
  // The embedded server's connections share one session: the app's own searches must not keep the last value.
  await client.query("RESET hnsw.ef_search");
  return { recall, exactP50: percentile(exactMs, 50), probes: probes.length };
};

export const measureScale = async (target: ScaleTarget, total: number, queries: string[]): Promise<ScaleFigures> => {
  const { db } = await import("@/server/db");
  const { ensureProject } = await import("@/server/projects/service");
  const { hnswIndexSql } = await import("@/server/retrieval/embedding-index");
  const { searchConnectionOptions } = await import("@/server/retrieval/search-pool");
  const { label, databaseUrl, index, engine } = target;
  const project = await ensureProject(`scale-${Date.now()}`);
  // The app's search settings (the embedded server has them in its conf and ignores startup options).
  const client = new pg.Client({ connectionString: databaseUrl, options: searchConnectionOptions() });
  await client.connect();
  try {
    await dropSearchIndexes({ databaseUrl, index, engine });
    const loaded = await load(target, project.id, total);
    say(
      `scale: ${label}: ${loaded.chunks} chunks loaded in ${fmt(loaded.ms / 1000)} s${loaded.failure ? ` (${loaded.failure})` : ""}`,
    );
    const built = await buildSearchIndexes({ databaseUrl, index, engine });
    say(
      `scale: ${label}: HNSW index built in ${fmt(built.hnswMs / 1000)} s, ${engine} index in ${fmt(built.keywordMs / 1000)} s`,
    );
    const { rows } = await client.query(
      `SELECT pg_total_relation_size('chunks') AS total, pg_relation_size('chunks') AS heap,
              pg_relation_size($1::regclass) AS hnsw, pg_relation_size($2::regclass) AS keyword`,
      [hnswName(hnswIndexSql(index).sql), (await keywordIndex(engine)).name],
    );
    const sizes = [
      fmt(loaded.ms / 1000),
      fmt(built.hnswMs / 1000),
      fmt(built.keywordMs / 1000),
      mb(rows[0].total),
      mb(rows[0].heap),
      mb(rows[0].hnsw),
      mb(rows[0].keyword),
    ];
    const latency = await latencies(project.id, queries);
    const recall = await recallAt10(client, project.id, target, queries);
    return { label, engine, chunks: loaded.chunks, failure: loaded.failure, sizes, latency, ...recall };
  } finally {
    await client.end();
    await db.project.delete({ where: { id: project.id } });
  }
};
