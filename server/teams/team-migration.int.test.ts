import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations, defaultMigrationsDir } from "../postgres/migrate";

/** An install from before accounts existed keeps its projects and tokens: they move into the default team. */

let server: EmbeddedPostgres;
let client: pg.Client;
const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-team-migration-"));

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

it("moves existing projects into the default team, their tokens untouched", async () => {
  const all = readdirSync(defaultMigrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const teams = all.findIndex((name) => name.endsWith("_teams_and_accounts"));
  expect(teams).toBeGreaterThan(0);
  // The schema as it was before accounts.
  const before = path.join(tmp, "migrations");
  for (const name of all.slice(0, teams))
    cpSync(path.join(defaultMigrationsDir, name), path.join(before, name), { recursive: true });
  cpSync(path.join(defaultMigrationsDir, "migration_lock.toml"), path.join(before, "migration_lock.toml"));
  await applyMigrations({ url: server.url, migrationsDir: before });

  await client.query(
    `INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'default'), (gen_random_uuid(), 'research')`,
  );
  await client.query(
    `INSERT INTO api_tokens (id, project_id, name, hashed_token, display_prefix, permissions)
     SELECT gen_random_uuid(), id, 'cli', 'hash-' || name, 'qry_x…abcd', '{read}' FROM projects`,
  );

  const applied = await applyMigrations({ url: server.url });
  expect(applied).toContain(all[teams]);

  const { rows: teamRows } = await client.query(`SELECT id, name, is_default FROM teams`);
  expect(teamRows).toEqual([{ id: expect.any(String), name: "Default team", is_default: true }]);
  const { rows: projects } = await client.query(`SELECT name, team_id FROM projects ORDER BY name`);
  expect(projects).toEqual([
    { name: "default", team_id: teamRows[0].id },
    { name: "research", team_id: teamRows[0].id },
  ]);
  const { rows: tokens } = await client.query(`SELECT count(*)::int AS n FROM api_tokens WHERE revoked_at IS NULL`);
  expect(tokens[0].n).toBe(2);
  // Project names are unique per team now, not across the install.
  await expect(
    client.query(`INSERT INTO projects (id, name, team_id) VALUES (gen_random_uuid(), 'research', $1)`, [
      teamRows[0].id,
    ]),
  ).rejects.toThrow(/projects_team_id_name_key/);
});
