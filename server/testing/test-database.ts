import { startEmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations } from "../postgres/migrate";
import { setRuntimeEnv } from "../env";

export type TestDatabase = { url: string; stop: () => Promise<void> };

/**
 * An in-memory embedded Postgres with every migration applied, made this test file's DATABASE_URL — the setup of the
 * integration tests that call domain functions directly. `keywordEngine` also detects BM25 as the app does at start.
 * `stop` closes the app's pools before the server.
 */
export const startTestDatabase = async ({ keywordEngine = false } = {}): Promise<TestDatabase> => {
  const server = await startEmbeddedPostgres({ port: 0 });
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
