import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { fmt, percentile, table, time } from "./stats";

/**
 * prebuilt-rag latency at 10k and 100k chunks, next to the raw SQL it runs (same query, same vector, straight to
 * Postgres), and retrieval quality on SciFact (train queries) at the 10k size.
 */

const SCIFACT = path.resolve(import.meta.dirname, "../../shared/eval/scifact");
const QUERIES = 60;

type Doc = { id: string; text: string };

const loadDocs = (): { docs: Doc[]; queries: { id: string; text: string }[]; qrels: Map<string, Set<string>> } => {
  if (!existsSync(SCIFACT)) {
    // Without the shared eval set, synthetic sentences keep the latency figures meaningful.
    const words = "granite marble slate basalt quarry joint bedding fossil cut saw block wedge survey drill".split(" ");
    const docs = Array.from({ length: 5000 }, (_, i) => ({
      id: String(i),
      text: Array.from({ length: 60 }, (_, j) => words[(i * 7 + j * 13) % words.length]).join(" "),
    }));
    return {
      docs,
      queries: docs.slice(0, QUERIES).map((d) => ({ id: d.id, text: d.text.slice(0, 60) })),
      qrels: new Map(),
    };
  }
  const lines = (f: string) => readFileSync(path.join(SCIFACT, f), "utf8").split("\n").filter(Boolean);
  const docs = lines("corpus.jsonl").map((l) => {
    const d = JSON.parse(l) as { _id: string; title: string; text: string };
    return { id: d._id, text: `${d.title}\n\n${d.text}` };
  });
  const qrels = new Map<string, Set<string>>();
  for (const row of lines("qrels/train.tsv").slice(1)) {
    const [q, d] = row.split("\t");
    if (!qrels.has(q!)) qrels.set(q!, new Set());
    qrels.get(q!)!.add(d!);
  }
  const queries = lines("queries.jsonl")
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { docs, queries, qrels };
};

/**
 * Fills the project with `total` chunks (one indexed source) written straight to the database. The HNSW index is
 * dropped during the load and built afterwards, as for any bulk import; its build time is returned separately.
 */
const seed = async ({
  client,
  projectId,
  docs,
  total,
  indexId,
  vectors,
  indexSql,
}: {
  client: pg.Client;
  projectId: string;
  docs: Doc[];
  total: number;
  indexId: string;
  vectors: string[];
  indexSql: { text: string; name: string };
}) => {
  await client.query("DELETE FROM sources WHERE project_id = $1", [projectId]);
  await client.query(`DROP INDEX IF EXISTS "${indexSql.name}"`);
  const {
    rows: [source],
  } = await client.query(
    `INSERT INTO sources (id, project_id, file_name, file_type, file_size, file_source, status, updated_at)
     VALUES (gen_random_uuid(), $1, 'bench.jsonl', 'txt', 0, 'local file', 'Completed', now()) RETURNING id`,
    [projectId],
  );
  const {
    rows: [build],
  } = await client.query(
    `INSERT INTO builds (id, project_id, source_id, method, status, embedding_index_id, updated_at)
     VALUES (gen_random_uuid(), $1, $2, 'basic', 'Completed', $3, now()) RETURNING id`,
    [projectId, source.id, indexId],
  );
  for (let start = 0; start < total; start += 2000) {
    const n = Math.min(2000, total - start);
    const idx = Array.from({ length: n }, (_, i) => (start + i) % docs.length);
    await client.query(
      `INSERT INTO chunks (id, project_id, source_id, build_id, position, text, element_ids, metadata, embedding_index_id, embedding)
       SELECT gen_random_uuid(), $1, $2, $3, p, t, '{}', jsonb_build_object('doc_id', d), $4, v::vector
       FROM unnest($5::int[], $6::text[], $7::text[], $8::text[]) AS x(p, t, d, v)`,
      [
        projectId,
        source.id,
        build.id,
        indexId,
        idx.map((_, i) => start + i),
        idx.map((i) => docs[i]!.text),
        idx.map((i) => docs[i]!.id),
        idx.map((i) => vectors[i]!),
      ],
    );
  }
  await client.query("UPDATE sources SET indexed_build_id = $1 WHERE id = $2", [build.id, source.id]);
  const [, hnswMs] = await time(() => client.query(indexSql.text));
  await client.query("ANALYZE chunks");
  return hnswMs;
};

const ndcgAt10 = (ranked: string[], relevant: Set<string>) => {
  const dcg = ranked.slice(0, 10).reduce((s, id, i) => s + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(10, relevant.size) }, (_, i) => 1 / Math.log2(i + 2)).reduce(
    (a, b) => a + b,
    0,
  );
  return ideal ? dcg / ideal : 0;
};

export const benchRetrieval = async ({ quarry, databaseUrl }: { quarry: QuarryProcess; databaseUrl: string }) => {
  const { getEmbedder } = await import("@/server/embedding");
  const { ensureEmbeddingIndex, hnswIndexSql, toVectorLiteral } = await import("@/server/retrieval/embedding-index");
  const { rawHybridSql } = await import("./raw-sql");
  const { keywordTsQuery } = await import("@/server/retrieval/keyword-query");
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const embedder = getEmbedder();
  const index = await ensureEmbeddingIndex(embedder);
  const indexText = hnswIndexSql(index).sql;
  const indexSql = { text: indexText, name: /INDEX IF NOT EXISTS "([^"]+)"/.exec(indexText)![1]! };
  const { docs, queries, qrels } = loadDocs();
  const [vectors, embedMs] = await time(async () =>
    (await embedder.embed(docs.map((d) => d.text))).map(toVectorLiteral),
  );
  const chars = docs.reduce((sum, d) => sum + d.text.length, 0);
  say(
    `Embedding ${docs.length} texts with ${embedder.model}: ${fmt(embedMs / 1000, 2)} s (${fmt(chars / (embedMs / 1000) / 1e6, 2)} M chars/s)`,
  );

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const {
    rows: [project],
  } = await client.query("SELECT id FROM projects WHERE name = 'default'");
  const api = apiClient(quarry);
  const sample = queries.slice(0, QUERIES);
  const rows: (string | number)[][] = [
    ["chunks", "load s", "HNSW build s", "api p50 ms", "api p95 ms", "raw SQL p50 ms", "raw SQL p95 ms", "p50 ratio"],
  ];

  for (const total of [10_000, 100_000]) {
    const [hnswMs, seedMs] = await time(() =>
      seed({ client, projectId: project.id, docs, total, indexId: index.id, vectors, indexSql }),
    );
    const { rows: indexed } = await client.query(
      "SELECT indexed_build_id AS id FROM sources WHERE project_id = $1 AND indexed_build_id IS NOT NULL",
      [project.id],
    );
    const buildIds = indexed.map((r: { id: string }) => r.id);
    const apiMs: number[] = [];
    const sqlMs: number[] = [];
    let ndcg = 0;
    for (const q of sample) {
      const [res, ms] = await time(async () => (await api.post("/prebuilt-rag", { query: q.text })).json());
      apiMs.push(ms);
      const [vector] = await embedder.embed([q.text]);
      const tsQuery = (await keywordTsQuery(q.text)) ?? "''";
      const sql = rawHybridSql({ projectId: project.id, buildIds, index, vector: toVectorLiteral(vector!), tsQuery });
      const [, rawMs] = await time(async () => {
        await client.query("BEGIN");
        await client.query("SET LOCAL hnsw.iterative_scan = relaxed_order");
        await client.query(sql.text, sql.values);
        await client.query("COMMIT");
      });
      sqlMs.push(rawMs);
      const ranked = (res as { chunks: { metadata: { doc_id: string } }[] }).chunks.map((c) => c.metadata.doc_id);
      ndcg += ndcgAt10([...new Set(ranked)], qrels.get(q.id) ?? new Set());
    }
    const [apiP50, sqlP50] = [percentile(apiMs, 50), percentile(sqlMs, 50)];
    rows.push([
      total,
      fmt((seedMs - hnswMs) / 1000),
      fmt(hnswMs / 1000),
      fmt(apiP50),
      fmt(percentile(apiMs, 95)),
      fmt(sqlP50),
      fmt(percentile(sqlMs, 95)),
      fmt(apiP50 / sqlP50, 2),
    ]);
    say(`${total} chunks: API p50 ${fmt(apiP50)} ms, raw SQL p50 ${fmt(sqlP50)} ms`);
    if (total === 10_000 && qrels.size) {
      say(
        `SciFact nDCG@10, ${sample.length} train queries (corpus repeated to 10k chunks, duplicates collapsed): ${fmt(ndcg / sample.length, 3)}`,
      );
    }
  }
  await client.end();
  return [`prebuilt-rag latency (${sample.length} queries each; ratio = API p50 / raw SQL p50)`, table(rows)].join(
    "\n",
  );
};
