import { startEmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations } from "../postgres/migrate";
import { setRuntimeEnv } from "../env";
import { createScratchDatabase, realPostgresUrl } from "./scratch-database";

export type TestDatabase = { url: string; stop: () => Promise<void> };

/**
 * An in-memory embedded Postgres with every migration applied, made this test file's DATABASE_URL — the setup of the
 * integration tests that call domain functions directly. With QUARRY_TEST_POSTGRES_URL set, a fresh database on that
 * real server instead (scratch-database.ts), dropped at `stop`. `keywordEngine` also detects BM25 as the app does at
 * start. `stop` closes the app's pools before the server.
 */
export const startTestDatabase = async ({ keywordEngine = false } = {}): Promise<TestDatabase> => {
  const real = realPostgresUrl();
  const server = real
    ? await createScratchDatabase(real).then((scratch) => ({ url: scratch.url, stop: scratch.drop }))
    : await startEmbeddedPostgres({ port: 0 });
  await applyMigrations({ url: server.url });
  setRuntimeEnv("DATABASE_URL", server.url);
  if (keywordEngine) {
    const { setupKeywordEngine } = await import("../retrieval/keyword-engine");
    await setupKeywordEngine();
  }
  return {
    url: server.url,
    stop: async () => {
      const { closeSearchPool } = await import("../retrieval/search-pool");
      await closeSearchPool();
      const { disconnectDb } = await import("../db");
      await disconnectDb();
      await server.stop();
    },
  };
};
