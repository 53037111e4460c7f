import pg from "pg";
import { distinctIds, ingestSciFact, ndcgAt10, recallAt, type SciFact } from "./scifact";
import { fmt, percentile, table, time } from "./stats";

/**
 * Retrieval quality on SciFact train (809 queries, corpus ingested once): nDCG@10 and recall@100 per search type,
 * ranking documents (at most one chunk per document), next to plain BM25 over whole documents computed in the same
 * run. Also printed: the fusion weights and reciprocal rank fusion tried for hybrid (the figures that chose the
 * weight), the full-text fallback engine, and what prebuilt-rag's shape (10 chunks, duplicates collapsed) gives.
 */

type Metrics = { ndcg: number; recall: number; ms: number[] };

const score = (rankings: { query: string; docs: string[] }[], sf: SciFact): Omit<Metrics, "ms"> => {
  let ndcg = 0;
  let recall = 0;
  for (const { query, docs } of rankings) {
    const relevant = sf.qrels.get(query) ?? new Set<string>();
    ndcg += ndcgAt10(docs, relevant);
    recall += recallAt(100, docs, relevant);
  }
  return { ndcg: ndcg / rankings.length, recall: recall / rankings.length };
};

const row = (name: string, m: Metrics, note = "") => [
  name,
  fmt(m.ndcg, 4),
  fmt(m.recall, 4),
  m.ms.length ? fmt(percentile(m.ms, 50)) : "",
  note,
];

/** Plain BM25 (pg_textsearch, k1 1.2, b 0.75, English) over whole documents, title and abstract, in its own table. */
const bm25Baseline = async (databaseUrl: string, sf: SciFact): Promise<Metrics> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("DROP TABLE IF EXISTS bench_bm25_docs");
    await client.query("CREATE TABLE bench_bm25_docs (id text PRIMARY KEY, body text NOT NULL)");
    for (let i = 0; i < sf.docs.length; i += 1000) {
      const batch = sf.docs.slice(i, i + 1000);
      await client.query("INSERT INTO bench_bm25_docs SELECT * FROM unnest($1::text[], $2::text[])", [
        batch.map((d) => d.id),
        batch.map((d) => `${d.title} ${d.text}`),
      ]);
    }
    await client.query(
      "CREATE INDEX bench_bm25_docs_idx ON bench_bm25_docs USING bm25 (body) WITH (text_config = 'english', k1 = 1.2, b = 0.75)",
    );
    const rankings: { query: string; docs: string[] }[] = [];
    const ms: number[] = [];
    for (const q of sf.queries) {
      const [res, took] = await time(() =>
        client.query<{ id: string }>(
          "SELECT id FROM bench_bm25_docs ORDER BY body <@> to_bm25query($1, 'bench_bm25_docs_idx') LIMIT 100",
          [q.text],
        ),
      );
      ms.push(took);
      rankings.push({ query: q.id, docs: res.rows.map((r) => r.id) });
    }
    return { ...score(rankings, sf), ms };
  } finally {
    await client.query("DROP TABLE IF EXISTS bench_bm25_docs").catch(() => undefined);
    await client.end();
  }
};

/** Ingests SciFact into `projectId` (left in place: the latency bench copies its chunks) and measures. */
export const benchRetrievalQuality = async ({
  databaseUrl,
  projectId,
  sf,
  say,
}: {
  databaseUrl: string;
  projectId: string;
  sf: SciFact;
  say: (line: string) => void;
}) => {
  const { db } = await import("@/server/db");
  const { setRuntimeEnv } = await import("@/server/env");
  const { retrieve, HYBRID_VECTOR_WEIGHT } = await import("@/server/retrieval/retrieve");
  const { setupKeywordEngine } = await import("@/server/retrieval/keyword-engine");
  const { SEARCH_TYPES } = await import("@/server/retrieval/search-type.schema");

  const project = { id: projectId };
  const { docOfSource, ms: ingestMs } = await ingestSciFact({ projectId, docs: sf.docs });
  const chunks = await db.chunk.count({ where: { projectId } });
  say(`SciFact: ${sf.docs.length} documents ingested once (${chunks} chunks) in ${fmt(ingestMs / 1000)} s`);

  const run = async (options: { searchType?: (typeof SEARCH_TYPES)[number]; topK: number; distinct: boolean }) => {
    const rankings: { query: string; docs: string[] }[] = [];
    const ms: number[] = [];
    for (const q of sf.queries) {
      const [result, took] = await time(() =>
        retrieve({
          projectId: project.id,
          query: q.text,
          searchType: options.searchType,
          topK: options.topK,
          distinctDocuments: options.distinct,
        }),
      );
      ms.push(took);
      rankings.push({ query: q.id, docs: distinctIds(result.chunks.map((c) => docOfSource.get(c.sourceId) ?? "")) });
    }
    return { ...score(rankings, sf), ms };
  };

  const rows: (string | number)[][] = [["ranking", "nDCG@10", "recall@100", "p50 ms", "note"]];
  rows.push(row("BM25 baseline (whole documents)", await bm25Baseline(databaseUrl, sf), "pg_textsearch, plain"));
  for (const searchType of SEARCH_TYPES) {
    const note = searchType === "hybrid" ? `vector weight ${HYBRID_VECTOR_WEIGHT}` : "";
    rows.push(row(searchType, await run({ searchType, topK: 100, distinct: true }), note));
    say(`  ${searchType} done`);
  }
  rows.push(
    row("hybrid, prebuilt-rag shape", await run({ topK: 10, distinct: false }), "10 chunks, duplicates collapsed"),
  );
  setRuntimeEnv("QUARRY_KEYWORD_ENGINE", "fulltext");
  await setupKeywordEngine();
  rows.push(
    row("keyword, full-text fallback", await run({ searchType: "keyword", topK: 100, distinct: true }), "ts_rank"),
  );
  setRuntimeEnv("QUARRY_KEYWORD_ENGINE", "auto");
  await setupKeywordEngine();

  const fusion = await fusionFigures({ projectId, sf, docOfSource });
  return [
    `SciFact train, ${sf.queries.length} queries: documents ranked by their best chunk (distinctDocuments)`,
    table(rows),
    "",
    "Hybrid fusion tried on the same queries (nDCG@10 / recall@100):",
    table(fusion),
  ].join("\n");
};

/**
 * The figures behind the hybrid weight: the weighted sum of cosine similarity and relative BM25 score at several
 * weights, and reciprocal rank fusion (k = 60) of the two rankings, all on the same candidates.
 */
const fusionFigures = async ({
  projectId,
  sf,
  docOfSource,
}: {
  projectId: string;
  sf: SciFact;
  docOfSource: Map<string, string>;
}) => {
  const { getEmbedder } = await import("@/server/providers/embedding");
  const { ensureEmbeddingIndex, toVectorLiteral } = await import("@/server/retrieval/embedding-index");
  const { runSearch } = await import("@/server/retrieval/search-pool");
  const { searchSql } = await import("@/server/retrieval/vector-search");
  const embedder = getEmbedder();
  const index = await ensureEmbeddingIndex(embedder);
  type Candidate = { doc: string; similarity: number; keyword: number };
  const perQuery: { query: string; candidates: Candidate[] }[] = [];
  for (const q of sf.queries) {
    const [vector] = await embedder.embed([q.text]);
    const rows = await runSearch<{ id: string | null; source_id: string; similarity: number; keyword: number }>(
      searchSql({
        projectId,
        mode: "hybrid",
        vector: { literal: toVectorLiteral(vector!), index },
        keyword: { engine: "bm25", text: q.text },
        vectorWeight: 0,
        pool: 400,
        limit: 800,
        distinctDocuments: false,
      }),
    );
    perQuery.push({
      query: q.id,
      candidates: rows
        .filter((r) => r.id)
        .map((r) => ({
          doc: docOfSource.get(r.source_id) ?? "",
          similarity: Math.max(0, Number(r.similarity ?? 0)),
          keyword: Number(r.keyword ?? 0),
        })),
    });
  }
  const rank = (scoreOf: (c: Candidate, i: { byKeyword: number; byVector: number }) => number) =>
    score(
      perQuery.map(({ query, candidates }) => {
        const byKeyword = new Map([...candidates].sort((a, b) => b.keyword - a.keyword).map((c, i) => [c, i + 1]));
        const byVector = new Map([...candidates].sort((a, b) => b.similarity - a.similarity).map((c, i) => [c, i + 1]));
        const best = new Map<string, number>();
        for (const c of candidates) {
          const s = scoreOf(c, { byKeyword: byKeyword.get(c)!, byVector: byVector.get(c)! });
          best.set(c.doc, Math.max(best.get(c.doc) ?? -Infinity, s));
        }
        return { query, docs: [...best].sort((a, b) => b[1] - a[1]).map(([doc]) => doc) };
      }),
      sf,
    );
  const rows: (string | number)[][] = [["fusion", "nDCG@10", "recall@100"]];
  for (const w of [0, 0.1, 0.2, 0.3, 0.5, 1]) {
    const m = rank((c) => w * c.similarity + (1 - w) * c.keyword);
    rows.push([`weighted sum, vector weight ${w}`, fmt(m.ndcg, 4), fmt(m.recall, 4)]);
  }
  for (const w of [0.3, 0.5]) {
    const m = rank((_, r) => (1 - w) / (60 + r.byKeyword) + w / (60 + r.byVector));
    rows.push([`reciprocal rank fusion k=60, vector weight ${w}`, fmt(m.ndcg, 4), fmt(m.recall, 4)]);
  }
  return rows;
};
