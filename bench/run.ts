/**
 * `npm run bench`: figures, not pass/fail. Starts its own Quarry on a temporary embedded Postgres, then prints
 * ingest throughput next to pdftotext, pages/s per partition method next to pdftotext and the tesseract CLI, peak
 * memory while ingesting a 100 MB file, retrieval quality on SciFact with prebuilt-rag latency next to the raw SQL it
 * runs, and the scale point (BENCH_SCALE_CHUNKS, default 1,000,000 chunks: an hour or more on two cores).
 * BENCH_ONLY=ingest,methods,memory,retrieval,scale picks parts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

process.env.LOG_LEVEL ??= "warn";

const main = async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-bench-"));
  const { startEmbeddedPostgres } = await import("@/server/db/embedded-postgres");
  const pgServer = await startEmbeddedPostgres({ dataDir: path.join(dir, "db"), port: 0 });
  const { setRuntimeEnv } = await import("@/server/env");
  setRuntimeEnv("DATABASE_URL", pgServer.url);
  const { applyMigrations } = await import("@/server/db/migrate");
  await applyMigrations({ url: pgServer.url });

  const { startQuarry } = await import("@/server/testing/quarry-process");
  const quarry = await startQuarry({ env: { DATABASE_URL: pgServer.url, QUARRY_JOB_CONCURRENCY: "2" } });
  try {
    const { benchIngest } = await import("./ingest");
    const { benchMethods } = await import("./methods");
    const { benchMemory } = await import("./memory");
    const { benchRetrieval } = await import("./retrieval");
    const only = process.env.BENCH_ONLY?.split(",");
    const wanted = (name: string) => !only || only.includes(name);
    if (wanted("ingest")) process.stdout.write(`${await benchIngest(quarry)}\n\n`);
    if (wanted("methods")) process.stdout.write(`${await benchMethods()}\n\n`);
    if (wanted("memory")) process.stdout.write(`${await benchMemory(quarry)}\n\n`);
    if (wanted("retrieval")) process.stdout.write(`${await benchRetrieval({ quarry, databaseUrl: pgServer.url })}\n\n`);
    if (wanted("scale")) {
      const { benchScale } = await import("./scale");
      process.stdout.write(`${await benchScale({ databaseUrl: pgServer.url })}\n`);
    }
  } finally {
    await quarry.dispose();
    const { closeSearchPool } = await import("@/server/retrieval/search-pool");
    await closeSearchPool();
    const { disconnectDb } = await import("@/server/db");
    await disconnectDb();
    await pgServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
