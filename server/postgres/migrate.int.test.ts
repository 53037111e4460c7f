import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres";
import { applyMigrations, defaultMigrationsDir, FailedMigrationError, markMigrationRolledBack } from "./migrate";

describe("applyMigrations", () => {
  let server: EmbeddedPostgres;
  let client: pg.Client;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-migrate-test-"));

  const realMigrations = readdirSync(defaultMigrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

  beforeAll(async () => {
    server = await startEmbeddedPostgres({ port: 0 });
    client = new pg.Client(server.url);
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("applies the real migrations to a fresh database, then nothing on a re-run", async () => {
    expect(realMigrations.length).toBeGreaterThan(0);
    expect(await applyMigrations({ url: server.url })).toEqual(realMigrations);
    expect(await applyMigrations({ url: server.url })).toEqual([]);
  });

  it("records Prisma-compatible rows with the sha256 of migration.sql", async () => {
    const name = realMigrations[0]!;
    const sql = readFileSync(path.join(defaultMigrationsDir, name, "migration.sql"));
    const { rows } = await client.query(
      `SELECT checksum, finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations" WHERE migration_name = $1`,
      [name],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      checksum: createHash("sha256").update(sql).digest("hex"),
      rolled_back_at: null,
      applied_steps_count: 1,
      logs: null,
    });
    expect(rows[0].finished_at).toBeInstanceOf(Date);
  });

  it("fills chunks.tsv through the trigger on insert and on update of text (title and heading included)", async () => {
    const projectId = randomUUID();
    const sourceId = randomUUID();
    const chunkId = randomUUID();
    await client.query(
      `INSERT INTO projects (id, name, team_id) VALUES ($1, $2, (SELECT id FROM teams WHERE is_default LIMIT 1))`,
      [projectId, `tsv-${projectId}`],
    );
    await client.query(
      `INSERT INTO sources (id, project_id, file_name, file_type, file_size, file_source, updated_at)
       VALUES ($1, $2, 'a.txt', 'txt', 3, 'upload', now())`,
      [sourceId, projectId],
    );
    const chunkSetId = randomUUID();
    await client.query(`INSERT INTO chunk_sets (id, project_id, source_id, updated_at) VALUES ($1, $2, $3, now())`, [
      chunkSetId,
      projectId,
      sourceId,
    ]);
    await client.query(
      `INSERT INTO chunks (id, project_id, source_id, chunk_set_id, position, text, title) VALUES ($1, $2, $3, $4, 0, $5, $6)`,
      [chunkId, projectId, sourceId, chunkSetId, "The quick brown foxes jumped", "Field notes"],
    );
    const matches = async (query: string) =>
      (
        await client.query<{ hit: boolean }>(
          `SELECT tsv @@ plainto_tsquery('english', $2) AS hit FROM chunks WHERE id = $1`,
          [chunkId, query],
        )
      ).rows[0]?.hit;
    expect(await matches("fox jump")).toBe(true);
    expect(await matches("field note")).toBe(true); // the document title is searchable with the text

    await client.query(`UPDATE chunks SET text = 'Lazy dogs sleeping' WHERE id = $1`, [chunkId]);
    expect(await matches("fox")).toBe(false);
    expect(await matches("dog sleep")).toBe(true);
  });

  it("works with the Prisma client (db.ts)", async () => {
    setRuntimeEnv("DATABASE_URL", server.url);
    const { db, disconnectDb } = await import("@/server/db");
    try {
      const team = await db.team.findFirstOrThrow({ where: { isDefault: true } });
      const created = await db.project.create({ data: { name: `prisma-${randomUUID()}`, teamId: team.id } });
      expect(await db.project.findUnique({ where: { id: created.id } })).toEqual(created);
      const token = await db.apiToken.create({
        data: {
          projectId: created.id,
          name: "t",
          hashedToken: randomUUID(),
          displayPrefix: "qry_x",
          permissions: ["read"],
        },
      });
      expect(token).not.toHaveProperty("hashedToken"); // omitted globally
    } finally {
      await disconnectDb();
    }
  });

  it("rolls a failing migration back entirely and blocks later runs until it is resolved", async () => {
    const dir = path.join(tmp, "migrations");
    const write = (name: string, sql: string) => {
      mkdirSync(path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, "migration.sql"), sql);
    };
    write("20990101000000_ok", `CREATE TABLE good_one (id int);`);
    write(
      "20990101000001_bad",
      `CREATE TABLE half_done (id int);
       CREATE FUNCTION half_done_fn() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;
       SELECT * FROM table_that_does_not_exist;`,
    );

    await expect(applyMigrations({ url: server.url, migrationsDir: dir })).rejects.toThrow(
      /Migration 20990101000001_bad failed and was rolled back: relation "table_that_does_not_exist" does not exist/,
    );
    const exists = async (table: string) =>
      (await client.query<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [table])).rows[0]?.t !== null;
    expect(await exists("good_one")).toBe(true);
    expect(await exists("half_done")).toBe(false);

    const blocked = await applyMigrations({ url: server.url, migrationsDir: dir }).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(FailedMigrationError);
    expect((blocked as Error).message).toContain("20990101000001_bad failed earlier");
    expect((blocked as Error).message).toContain("resolve --rolled-back 20990101000001_bad");

    write("20990101000001_bad", `CREATE TABLE half_done (id int);`);
    await markMigrationRolledBack({ url: server.url, name: "20990101000001_bad" });
    expect(await applyMigrations({ url: server.url, migrationsDir: dir })).toEqual(["20990101000001_bad"]);
    expect(await exists("half_done")).toBe(true);
    // The real migrations are still the only ones the default directory knows about.
    expect(await applyMigrations({ url: server.url })).toEqual([]);
  });
});
