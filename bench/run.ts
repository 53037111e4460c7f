/**
 * `npm run bench`: figures, not pass/fail. Starts its own Quarry on a temporary embedded Postgres, then prints
 * ingest throughput next to pdftotext and prebuilt-rag latency next to the raw SQL it runs.
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
    const { benchRetrieval } = await import("./retrieval");
    process.stdout.write(`${await benchIngest(quarry)}\n\n`);
    process.stdout.write(`${await benchRetrieval({ quarry, databaseUrl: pgServer.url })}\n`);
  } finally {
    await quarry.dispose();
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
