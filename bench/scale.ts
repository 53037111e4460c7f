import pg from "pg";
import { copyCorpus } from "./querycost-copy";
import { measureScale, SCALE_QUERIES, type ScaleFigures, type ScaleTarget } from "./scale-measure";
import { loadSciFact } from "./scifact";
import { fmt, table } from "./stats";

/**
 * The scale point: one project grown to BENCH_SCALE_CHUNKS chunks on the embedded Postgres (default 250,000: the
 * largest point this two-core machine completes; a 1,000,000 load had reached 572k chunks after 35 minutes, slowing,
 * with 6.9 GB of WAL, since PGlite writes through one single-threaded backend), as
 * copies of SciFact documents indexed by the pipeline (synthetic text without ../shared). Printed: load time, HNSW
 * and keyword index build times, table and index sizes, p50/p95 of each search type through the retrieval function,
 * recall@10 of the HNSW index against exact search, and the bench process's peak memory (PGlite runs inside it).
 * With QUARRY_BENCH_POSTGRES_URL (an admin URL of a real Postgres with pgvector) the same is measured there too, in a
 * database of its own (dropped afterwards), on the template's rows copied over, with the keyword engine the app
 * detects (on Postgres 15, without pg_textsearch: the full-text fallback and its GIN index); one row per engine.
 */

const TEMPLATE_DOCS = 2000;
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Points this process's Prisma client and search pool at another database (both are made on first use). */
const switchDatabase = async (url: string) => {
  const { closeSearchPool } = await import("@/server/retrieval/search-pool");
  const { disconnectDb } = await import("@/server/db");
  const { setRuntimeEnv } = await import("@/server/env");
  await closeSearchPool();
  await disconnectDb();
  (globalThis as { quarryDb?: unknown }).quarryDb = undefined;
  setRuntimeEnv("DATABASE_URL", url);
};

const admin = async (adminUrl: string, sql: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query<Record<string, string>>(sql);
  } finally {
    await client.end();
  }
};

/** The same scale point on a new database of the real Postgres, from the embedded template's rows. */
const onRealPostgres = async (adminUrl: string, embedded: ScaleTarget, total: number, queries: string[]) => {
  const name = `quarry_scale_${Date.now()}`;
  const version = (await admin(adminUrl, "SHOW server_version")).rows[0]!.server_version!;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  try {
    const { applyMigrations } = await import("@/server/postgres/migrate");
    await applyMigrations({ url: databaseUrl });
    await switchDatabase(databaseUrl);
    const { setupKeywordEngine } = await import("@/server/retrieval/keyword-engine");
    const { engine, reason } = await setupKeywordEngine();
    say(`scale: postgres ${version}: keyword engine ${engine}${reason ? ` (${reason})` : ""}`);
    const template = await (await import("@/server/projects/service")).ensureProject(`scale-template-${Date.now()}`);
    const copied = await copyCorpus({
      fromUrl: embedded.databaseUrl,
      toUrl: databaseUrl,
      fromProject: embedded.templateId,
      toProject: template.id,
      embeddingIndexId: embedded.index.id,
    });
    const index = { id: copied.embeddingIndexId, dimension: copied.dimension };
    const label = `postgres ${version.split(" ")[0]}`;
    return await measureScale({ label, databaseUrl, templateId: template.id, index, engine }, total, queries);
  } finally {
    await switchDatabase(embedded.databaseUrl);
    await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
};

const format = (results: ScaleFigures[], target: number, peakRss: number) => {
  const short = results.filter((r) => r.failure).map((r) => `${r.label} short of ${target}: ${r.failure}`);
  const sizes = [
    [
      "database",
      "keyword engine",
      "chunks",
      "load s",
      "HNSW build s",
      "keyword index build s",
      "table+indexes MB",
    ].concat(["heap MB", "HNSW MB", "keyword index MB", "peak RSS MB"]),
  ];
  const latency = [["database", "keyword engine", "search_type", "p50 ms", "p95 ms"]];
  const recall = [
    ["database", "hnsw.ef_search", "recall@10 by distance", "by ids", "p50 ms", "p95 ms", "exact p50 ms"],
  ];
  for (const r of results) {
    // PGlite runs inside the bench process; a real Postgres's memory is its own processes'.
    const rss = r.label === "embedded" ? fmt(peakRss / 2 ** 20, 0) : "n/a";
    sizes.push([r.label, r.engine, String(r.chunks), ...r.sizes.map(String), rss]);
    for (const l of r.latency) latency.push([r.label, r.engine, l.searchType, fmt(l.p50), fmt(l.p95)]);
    for (const c of r.recall) {
      recall.push([
        r.label,
        String(c.ef),
        fmt(c.byDistance, 3),
        fmt(c.byIds, 3),
        fmt(c.p50),
        fmt(c.p95),
        fmt(r.exactP50),
      ]);
    }
  }
  return [
    `Scale: ${target} chunks in one project${short.length ? ` (${short.join("; ")})` : ""}`,
    table(sizes),
    "",
    `Search latency through the retrieval function (topK 10, ${SCALE_QUERIES} queries)`,
    table(latency),
    "",
    `HNSW recall@10 against exact search (${results[0]?.probes ?? 0} queries; by distance as ann-benchmarks counts ` +
      `it: within 1e-3 of the 10th), raw vector statement per ef_search, with the app's search settings`,
    table(recall),
  ].join("\n");
};

export const benchScale = async ({ databaseUrl }: { databaseUrl: string }) => {
  const target = Number(process.env.BENCH_SCALE_CHUNKS ?? 250_000);
  const { db } = await import("@/server/db");
  const { indexDocuments } = await import("@/server/testing/index-documents");
  const { getEmbedder } = await import("@/server/providers/embedding");
  const { ensureEmbeddingIndex } = await import("@/server/retrieval/embedding-index");
  const { keywordEngine } = await import("@/server/retrieval/keyword-engine");

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 1000);
  const sf = loadSciFact();
  const docs = (sf?.docs ?? []).slice(0, TEMPLATE_DOCS).map((d) => ({
    fileName: `scifact-${d.id}.md`,
    content: `# ${d.title}\n\n${d.text}\n`,
  }));
  const queries = sf?.queries.map((q) => q.text) ?? ["granite quarry saws", "fossils in limestone beds"];
  const template = await (await import("@/server/projects/service")).ensureProject(`scale-template-${Date.now()}`);
  const index = await ensureEmbeddingIndex(getEmbedder());
  const results: ScaleFigures[] = [];
  let embeddedPeak = peakRss;
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
    const embedded = { label: "embedded", databaseUrl, templateId: template.id, index, engine: await keywordEngine() };
    results.push(await measureScale(embedded, target, queries));
    embeddedPeak = peakRss;
    const adminUrl = process.env.QUARRY_BENCH_POSTGRES_URL;
    if (adminUrl) results.push(await onRealPostgres(adminUrl, embedded, target, queries));
    else say("scale: QUARRY_BENCH_POSTGRES_URL not set; the real Postgres was not measured");
  } finally {
    clearInterval(sampler);
    await db.project.delete({ where: { id: template.id } });
  }
  return format(results, target, embeddedPeak);
};
