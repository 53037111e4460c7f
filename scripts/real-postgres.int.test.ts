import { existsSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createScratchDatabase } from "@/server/testing/scratch-database";
import { PGVECTOR_VERSION, postgresInstalled, startRealPostgres } from "./real-postgres";

/**
 * The throwaway real Postgres of `npm test` and a suite's database on it, where Postgres 15 and pgvector are installed
 * (scripts/real-postgres.ts installs them only when `npm test` runs as root; this test never installs anything).
 */
describe.skipIf(!postgresInstalled())("the throwaway real Postgres", () => {
  it("starts on loopback, gives each suite a database with pgvector, drops it, and leaves nothing behind", async () => {
    const server = await startRealPostgres();
    try {
      const admin = new URL(server.adminUrl);
      expect(admin.hostname).toBe("127.0.0.1");
      const scratch = await createScratchDatabase(server.adminUrl);
      const client = new pg.Client({ connectionString: scratch.url });
      client.on("error", () => undefined); // the drop below ends this session on purpose
      await client.connect();
      const { rows } = await client.query<{ version: string; extversion: string }>(
        "SELECT current_setting('server_version_num') AS version, extversion FROM pg_extension WHERE extname = 'vector'",
      );
      expect(rows[0]).toMatchObject({ extversion: PGVECTOR_VERSION });
      expect(Number(rows[0]!.version)).toBeGreaterThanOrEqual(150000);
      // Left open, as a killed app leaves its sessions: the drop still goes through.
      await scratch.drop();
      const names = new pg.Client({ connectionString: server.adminUrl });
      await names.connect();
      const left = await names.query("SELECT 1 FROM pg_database WHERE datname = $1", [
        new URL(scratch.url).pathname.slice(1),
      ]);
      await names.end();
      expect(left.rowCount).toBe(0);
      await client.end().catch(() => undefined);
    } finally {
      server.stop();
    }
    expect(existsSync(server.dir)).toBe(false);
  });
});
