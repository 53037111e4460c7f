import pg from "pg";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { benchRetrievalQuality } from "./retrieval-quality";
import { buildSearchIndexes, copyChunks, dropSearchIndexes } from "./retrieval-seed";
import { loadSciFact } from "./scifact";
import { fmt, percentile, table, time } from "./stats";

/**
 * Retrieval: quality on SciFact train (./retrieval-quality.ts), then prebuilt-rag latency at 10k and 100k chunks next
 * to the raw SQL of the same plan (the statement the app runs, with the same parameters, straight to Postgres),
 * measured side by side per query, then both again under 20 concurrent clients.
 */

const SIZES = [10_000, 100_000];
const QUERIES = 200;
const WARMUP = 20;
const CLIENTS = 20;
const PER_CLIENT = 10;

type Plan = { text: string; values: unknown[] };

export const benchRetrieval = async ({ quarry, databaseUrl }: { quarry: QuarryProcess; databaseUrl: string }) => {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const out: string[] = [];
  const { db } = await import("@/server/db");
  const sf = loadSciFact();
  // The documents the latency sizes are copied from: SciFact as the quality bench ingested it, else synthetic text.
  const template = await (await import("@/server/projects/service")).ensureProject(`bench-template-${Date.now()}`);
  if (sf) out.push(await benchRetrievalQuality({ databaseUrl, projectId: template.id, sf, say }));
  else {
    say("SciFact (../shared/eval) not found: quality skipped, latency measured on synthetic text");
    const { indexDocuments } = await import("@/server/testing/index-documents");
    await indexDocuments({ projectId: template.id, documents: syntheticDocuments() });
  }

  const { getEmbedder } = await import("@/server/providers/embedding");
  const { ensureEmbeddingIndex, toVectorLiteral } = await import("@/server/retrieval/embedding-index");
  const { searchSql } = await import("@/server/retrieval/vector-search");
  const { HYBRID_VECTOR_WEIGHT } = await import("@/server/retrieval/retrieve");
  const embedder = getEmbedder();
  const index = await ensureEmbeddingIndex(embedder);
  const project = (await db.project.findFirst({ where: { name: "default" } }))!;
  const api = apiClient(quarry);
  const queries = (sf?.queries.map((q) => q.text) ?? syntheticQueries()).slice(0, QUERIES + WARMUP);

  /** The statement prebuilt-rag runs for a query (hybrid, 10 chunks, pool 50), as the app builds it. */
  const planFor = async (query: string): Promise<Plan> => {
    const [vector] = await embedder.embed([query]);
    const sql = searchSql({
      projectId: project.id,
      mode: "hybrid",
      vector: { literal: toVectorLiteral(vector!), index },
      keyword: { engine: "bm25", text: query },
      vectorWeight: HYBRID_VECTOR_WEIGHT,
      pool: 50,
      limit: 10,
      distinctDocuments: false,
    });
    return { text: sql.text, values: sql.values };
  };

  const sql = new pg.Pool({ connectionString: databaseUrl, max: CLIENTS });
  const rows: (string | number)[][] = [
    ["chunks", "load s", "HNSW s", "BM25 s", "API p50", "API p95", "SQL p50", "SQL p95", "p95 ratio"],
  ];
  const concurrent: (string | number)[][] = [["chunks", "clients", "API p50", "API p95", "SQL p50", "SQL p95"]];
  const perType: (string | number)[][] = [["chunks", "search_type", "API p50", "API p95"]];
  try {
    for (const total of SIZES) {
      await dropSearchIndexes({ databaseUrl, index });
      const [chunks, loadMs] = await time(() =>
        copyChunks({ databaseUrl, projectId: project.id, templateProjectId: template.id, total }),
      );
      const built = await buildSearchIndexes({ databaseUrl, index });
      // The app re-reads the keyword engine once a minute; it may have seen the BM25 index missing during the load.
      for (let i = 0; ; i++) {
        const config = (await (await api.get("/config")).json()) as { keyword_engine: string };
        if (config.keyword_engine === "bm25") break;
        if (i > 150) throw new Error("the app does not see the rebuilt BM25 index");
        await new Promise((r) => setTimeout(r, 500));
      }
      const apiMs: number[] = [];
      const sqlMs: number[] = [];
      for (const [i, query] of queries.entries()) {
        const [, a] = await time(async () => (await api.post("/prebuilt-rag", { query })).json());
        const plan = await planFor(query);
        const [, s] = await time(() => sql.query(plan.text, plan.values));
        if (i >= WARMUP) {
          apiMs.push(a);
          sqlMs.push(s);
        }
      }
      rows.push([
        chunks,
        fmt(loadMs / 1000),
        fmt(built.hnswMs / 1000),
        fmt(built.keywordMs / 1000),
        fmt(percentile(apiMs, 50)),
        fmt(percentile(apiMs, 95)),
        fmt(percentile(sqlMs, 50)),
        fmt(percentile(sqlMs, 95)),
        fmt(percentile(apiMs, 95) / percentile(sqlMs, 95), 2),
      ]);
      say(`${total} chunks: API p95 ${fmt(percentile(apiMs, 95))} ms, raw SQL p95 ${fmt(percentile(sqlMs, 95))} ms`);

      for (const searchType of ["similarity", "keyword", "hybrid", "semantic"]) {
        const ms: number[] = [];
        for (const query of queries.slice(0, 100)) {
          ms.push(
            (await time(async () => (await api.post("/prebuilt-rag", { query, search_type: searchType })).json()))[1],
          );
        }
        perType.push([total, searchType, fmt(percentile(ms, 50)), fmt(percentile(ms, 95))]);
      }

      // 20 clients at once, each sending its queries one after another; then the same with the raw SQL.
      const load = async (call: (query: string) => Promise<unknown>) => {
        const ms: number[] = [];
        await Promise.all(
          Array.from({ length: CLIENTS }, async (_, c) => {
            for (let k = 0; k < PER_CLIENT; k++) {
              const query = queries[(c * PER_CLIENT + k) % queries.length]!;
              ms.push((await time(() => call(query)))[1]);
            }
          }),
        );
        return ms;
      };
      const apiLoad = await load(async (query) => (await api.post("/prebuilt-rag", { query })).json());
      const plans = new Map<string, Plan>();
      for (const q of queries) plans.set(q, await planFor(q));
      const sqlLoad = await load((query) => sql.query(plans.get(query)!.text, plans.get(query)!.values));
      concurrent.push([
        total,
        CLIENTS,
        fmt(percentile(apiLoad, 50)),
        fmt(percentile(apiLoad, 95)),
        fmt(percentile(sqlLoad, 50)),
        fmt(percentile(sqlLoad, 95)),
      ]);
    }
  } finally {
    await sql.end();
    await db.project.delete({ where: { id: template.id } });
  }
  out.push(
    [
      `prebuilt-rag (hybrid, 10 chunks) vs the raw SQL of the same plan, ${QUERIES} queries each, side by side (ms)`,
      table(rows),
      "",
      `Under ${CLIENTS} concurrent clients (${CLIENTS * PER_CLIENT} requests, ms)`,
      table(concurrent),
      "",
      "Per search type through prebuilt-rag (100 queries, ms)",
      table(perType),
    ].join("\n"),
  );
  return out.join("\n\n");
};

const SYNTHETIC_WORDS =
  "granite marble slate basalt quarry joint bedding fossil cut saw block wedge survey drill".split(" ");

const syntheticDocuments = () =>
  Array.from({ length: 1000 }, (_, i) => ({
    fileName: `synthetic-${i}.md`,
    content: `# ${SYNTHETIC_WORDS[i % 14]} report ${i}\n\n${Array.from({ length: 120 }, (_, j) => SYNTHETIC_WORDS[(i * 7 + j * 13) % 14]).join(" ")}\n`,
  }));

const syntheticQueries = () => {
  return Array.from({ length: QUERIES + WARMUP }, (_, i) =>
    Array.from({ length: 6 }, (__, j) => SYNTHETIC_WORDS[(i * 5 + j * 3) % SYNTHETIC_WORDS.length]).join(" "),
  );
};
