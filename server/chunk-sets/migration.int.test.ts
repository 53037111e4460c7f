import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations, defaultMigrationsDir } from "../postgres/migrate";

/**
 * The chunk_sets migration on a database that has data from before it: every source's indexed build gets a ready
 * chunk set, a build still running gets one that is building, chunks move into their sets and get their document
 * title and section heading, and the full-text column covers both.
 */

const CHUNK_SETS = "20261124032718_chunk_sets";

let server: EmbeddedPostgres;
let client: pg.Client;
const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-chunk-sets-migration-"));

beforeAll(async () => {
  server = await startEmbeddedPostgres({ port: 0 });
  client = new pg.Client(server.url);
  await client.connect();
  // The migrations before chunk sets, alone.
  const before = readdirSync(defaultMigrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name < CHUNK_SETS)
    .map((e) => e.name);
  for (const name of before) cpSync(path.join(defaultMigrationsDir, name), path.join(tmp, name), { recursive: true });
  expect(await applyMigrations({ url: server.url, migrationsDir: tmp })).toEqual(before);
});

afterAll(async () => {
  await client?.end();
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const insert = (table: string, row: Record<string, unknown>) => {
  const keys = Object.keys(row);
  return client.query(
    `INSERT INTO ${table} (${keys.join(", ")}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(", ")})`,
    Object.values(row),
  );
};

it("moves existing chunks into one chunk set per build, with titles and headings", async () => {
  const projectId = randomUUID();
  const [withTitle, withoutTitle] = [randomUUID(), randomUUID()];
  const [indexedA, runningA, indexedB] = [randomUUID(), randomUUID(), randomUUID()];
  const teamId = randomUUID();
  await insert("teams", { id: teamId, name: "old team" });
  await insert("projects", { id: projectId, name: "old", team_id: teamId });
  for (const [id, fileName] of [
    [withTitle, "quarry-report.md"],
    [withoutTitle, "notes.final.txt"],
  ]) {
    await insert("sources", {
      id,
      project_id: projectId,
      file_name: fileName,
      file_type: "txt",
      file_size: 1,
      file_source: "local file",
      updated_at: new Date(),
    });
  }
  for (const [id, sourceId] of [
    [indexedA, withTitle],
    [runningA, withTitle],
    [indexedB, withoutTitle],
  ]) {
    await insert("builds", { id, project_id: projectId, source_id: sourceId, method: "basic", updated_at: new Date() });
  }
  await client.query(`UPDATE sources SET indexed_build_id = $1 WHERE id = $2`, [indexedA, withTitle]);
  await client.query(`UPDATE sources SET indexed_build_id = $1 WHERE id = $2`, [indexedB, withoutTitle]);
  for (const [position, type, text] of [
    [0, "Title", "Granite Quarry Survey"],
    [1, "Title", "Wire Saws"],
    [2, "NarrativeText", "Diamond wire saws cut the blocks."],
  ] as const) {
    await insert("elements", {
      id: randomUUID(),
      project_id: projectId,
      source_id: withTitle,
      build_id: indexedA,
      element_id: `e${position}`,
      position,
      element_type: type,
      text,
    });
  }
  const chunk = (buildId: string, sourceId: string, position: number, text: string, section?: string) =>
    insert("chunks", {
      id: randomUUID(),
      project_id: projectId,
      source_id: sourceId,
      build_id: buildId,
      position,
      text,
      metadata: JSON.stringify(section ? { section_title: section } : {}),
    });
  await chunk(indexedA, withTitle, 0, "Granite Quarry Survey", "Granite Quarry Survey");
  await chunk(indexedA, withTitle, 1, "Diamond wire saws cut the blocks.", "Wire Saws");
  await chunk(runningA, withTitle, 0, "A newer parse, still running.");
  await chunk(indexedB, withoutTitle, 0, "Plain notes without any heading.");

  // Chunk sets first; later migrations follow it.
  expect((await applyMigrations({ url: server.url }))[0]).toBe(CHUNK_SETS);

  const { rows: sets } = await client.query(
    `SELECT build_id, source_id, status, owner_kind, chunk_count, config->>'splitter' AS splitter FROM chunk_sets
     WHERE project_id = $1 ORDER BY chunk_count DESC, status`,
    [projectId],
  );
  expect(sets).toEqual([
    {
      build_id: indexedA,
      source_id: withTitle,
      status: "ready",
      owner_kind: "source_build",
      chunk_count: 2,
      splitter: "title",
    },
    {
      build_id: runningA,
      source_id: withTitle,
      status: "building",
      owner_kind: "source_build",
      chunk_count: 1,
      splitter: "title",
    },
    {
      build_id: indexedB,
      source_id: withoutTitle,
      status: "ready",
      owner_kind: "source_build",
      chunk_count: 1,
      splitter: "title",
    },
  ]);
  const { rows: chunks } = await client.query(
    `SELECT cs.build_id, c.position, c.title, c.heading, c.tsv @@ plainto_tsquery('english', 'granite survey') AS title_hit
     FROM chunks c JOIN chunk_sets cs ON cs.id = c.chunk_set_id WHERE c.project_id = $1 ORDER BY cs.build_id = $2 DESC, c.position`,
    [projectId, indexedA],
  );
  const of = (buildId: string) => chunks.filter((c) => c.build_id === buildId);
  // The first Title element is the document's title; a heading equal to it is not repeated.
  expect(of(indexedA)).toEqual([
    { build_id: indexedA, position: 0, title: "Granite Quarry Survey", heading: "", title_hit: true },
    { build_id: indexedA, position: 1, title: "Granite Quarry Survey", heading: "Wire Saws", title_hit: true },
  ]);
  // No Title element: the file name without its extension.
  expect(of(indexedB)).toMatchObject([{ title: "notes.final", heading: "", title_hit: false }]);
  expect(of(runningA)).toHaveLength(1);
  await expect(
    client.query(`INSERT INTO chunks (id, project_id, source_id, position, text) VALUES ($1, $2, $3, 0, 'x')`, [
      randomUUID(),
      projectId,
      withTitle,
    ]),
  ).rejects.toThrow(/chunk_set_id/);
});
