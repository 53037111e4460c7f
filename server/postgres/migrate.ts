import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { errorMessage } from "@/server/errors";
import { logger } from "@/server/logger";

/**
 * Applies Prisma migrations (prisma/migrations/<name>/migration.sql) with nothing but `pg`, because Prisma's native
 * schema engine cannot be downloaded here and is not shipped with Quarry.
 *
 * It keeps Prisma's bookkeeping exactly (`_prisma_migrations`, sha256 checksums, a failed row blocking further
 * runs), so `prisma migrate deploy` and this applier can take turns on the same database.
 *
 * Each migration runs in its own transaction as ONE simple-protocol query: a plpgsql `$$` body stays intact, and a
 * failing migration leaves nothing behind. A migration therefore cannot use statements that refuse to run in a
 * transaction (CREATE INDEX CONCURRENTLY, VACUUM), nor use an enum value it adds with ALTER TYPE ... ADD VALUE.
 */

/** From the app's root (where npm and the launcher run): this module also runs from a bundle in `.next`. */
export const defaultMigrationsDir = path.resolve("prisma/migrations");

/** The id Prisma's engine takes its advisory lock on, so the two never migrate at the same time. */
const PRISMA_ADVISORY_LOCK_ID = 72707369;

// Prisma's own DDL for the table, so a database first migrated here is indistinguishable from one Prisma migrated.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type MigrationFile = { name: string; sql: string; checksum: string };

export const migrationChecksum = (sql: string) => createHash("sha256").update(sql, "utf8").digest("hex");

/** Migration directories in the order Prisma applies them (by name, i.e. by timestamp prefix). */
export const readMigrations = (migrationsDir: string): MigrationFile[] => {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      if (!existsSync(file)) throw new Error(`Migration ${name} has no migration.sql (${file})`);
      const sql = readFileSync(file, "utf8");
      return { name, sql, checksum: migrationChecksum(sql) };
    });
};

type MigrationRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
};

const resolveHint = (name: string) =>
  `Fix the cause (undo any partial change by hand if the migration ran outside this tool), then mark it rolled back ` +
  `with \`npx tsx scripts/migrate.ts resolve --rolled-back ${name}\` (or \`prisma migrate resolve --rolled-back ${name}\`) ` +
  `and run the migrations again.`;

export class FailedMigrationError extends Error {
  readonly migrationName: string;

  constructor({ migrationName, logs }: { migrationName: string; logs: string | null }) {
    const cause = logs ? ` It failed with: ${logs.split("\n")[0]}` : "";
    super(
      `Migration ${migrationName} failed earlier and blocks all further migrations.${cause} ${resolveHint(migrationName)}`,
    );
    this.name = "FailedMigrationError";
    this.migrationName = migrationName;
  }
}

const withClient = async <T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  // Without a listener, a dropped connection would crash the process instead of failing the current query.
  client.on("error", (err) => logger.warn({ err }, "migration connection failed"));
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};

const applyOne = async (client: pg.Client, migration: MigrationFile): Promise<boolean> => {
  const startedAt = performance.now();
  await client.query("BEGIN");
  try {
    // On the embedded Postgres every connection shares one session, so the advisory lock does not exclude a second
    // runner there; its transactions are serialized though, so re-checking inside ours is enough.
    const done = await client.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      [migration.name],
    );
    if (done.rowCount) {
      await client.query("ROLLBACK");
      return false;
    }
    const id = randomUUID();
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [
      id,
    ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    // Recorded like Prisma records a failure: unfinished, with logs. It blocks later runs until resolved.
    const logs = errorMessage(error);
    await client
      .query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, started_at, applied_steps_count) VALUES ($1, $2, $3, $4, now(), 0)`,
        [randomUUID(), migration.checksum, migration.name, logs],
      )
      .catch((err: unknown) =>
        logger.error({ err, migration: migration.name }, "could not record the failed migration"),
      );
    throw new Error(`Migration ${migration.name} failed and was rolled back: ${logs}. ${resolveHint(migration.name)}`, {
      cause: error,
    });
  }
  logger.info({ migration: migration.name, ms: Math.round(performance.now() - startedAt) }, "migration applied");
  return true;
};

/** Apply the migrations the database does not have yet. Returns the names applied, in order. */
export const applyMigrations = async ({
  url,
  migrationsDir = defaultMigrationsDir,
}: {
  url: string;
  migrationsDir?: string;
}): Promise<string[]> => {
  const migrations = readMigrations(migrationsDir);
  return withClient(url, async (client) => {
    await client.query(CREATE_MIGRATIONS_TABLE);
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK_ID]);
    try {
      const { rows } = await client.query<MigrationRow>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at, logs FROM "_prisma_migrations" ORDER BY started_at`,
      );
      const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
      if (failed) throw new FailedMigrationError({ migrationName: failed.migration_name, logs: failed.logs });

      const finished = new Map(
        rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]),
      );
      const applied: string[] = [];
      for (const migration of migrations) {
        const row = finished.get(migration.name);
        if (row) {
          if (row.checksum !== migration.checksum) {
            logger.warn({ migration: migration.name }, "an applied migration was edited afterwards; it is not re-run");
          }
          continue;
        }
        if (await applyOne(client, migration)) applied.push(migration.name);
      }
      return applied;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK_ID]).catch(() => undefined);
    }
  });
};

/** `prisma migrate resolve --rolled-back <name>`: unblock migrations after a failure was dealt with. */
export const markMigrationRolledBack = async ({ url, name }: { url: string; name: string }): Promise<void> => {
  await withClient(url, async (client) => {
    await client.query(CREATE_MIGRATIONS_TABLE);
    const result = await client.query(
      `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
      [name],
    );
    if (!result.rowCount) throw new Error(`No failed migration named ${name} to mark as rolled back.`);
  });
};
