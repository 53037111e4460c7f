import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres";
import { applyMigrations, defaultMigrationsDir } from "./migrate";

/**
 * An existing data directory meets the migrations that turned statuses into enums and gave every tenant table a
 * foreign key to its project: what `npm start` does on the next start. Its rows must survive, statuses unchanged.
 */
const FIRST_NEW = "20261127085529_status_enums";

const PROJECT_TABLES = [
  "sources",
  "builds",
  "elements",
  "chunk_sets",
  "chunks",
  "reembedding_jobs",
  "flows",
  "flow_revisions",
  "flow_node_stats",
  "flow_node_indexes",
  "test_sets",
  "evaluation_runs",
];

describe("migrating a data directory made before the status enums and project keys", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-migrate-upgrade-test-"));
  const dataDir = path.join(tmp, "data");
  const allMigrations = readdirSync(defaultMigrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const newMigrations = allMigrations.filter((name) => name >= FIRST_NEW);
  let server: EmbeddedPostgres | undefined;
  let client: pg.Client | undefined;
  const ids: Record<string, string> = {};

  const start = async () => {
    server = await startEmbeddedPostgres({ dataDir, port: 0 });
    client = new pg.Client(server.url);
    await client.connect();
  };
  const stop = async () => {
    await client?.end();
    await server?.stop();
    client = undefined;
    server = undefined;
  };
  const one = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await client!.query<T>(sql, params)).rows[0]!;

  beforeAll(async () => {
    // The migrations as they were before this change, applied to a data directory on disk.
    const before = path.join(tmp, "migrations-before");
    mkdirSync(before);
    for (const name of allMigrations.filter((n) => n < FIRST_NEW)) {
      cpSync(path.join(defaultMigrationsDir, name), path.join(before, name), { recursive: true });
    }
    await start();
    await applyMigrations({ url: server!.url, migrationsDir: before });

    const id = async (key: string, sql: string, params: unknown[]) => {
      ids[key] = (await one<{ id: string }>(`${sql} RETURNING id::text`, params)).id;
    };
    await id(
      "project",
      `INSERT INTO projects (id, name, team_id) VALUES (gen_random_uuid(), 'old', (SELECT id FROM teams WHERE is_default))`,
      [],
    );
    const p = ids.project;
    await id(
      "index",
      `INSERT INTO embedding_indexes (id, provider, model, dimension) VALUES (gen_random_uuid(), 'local', 'm', 3)`,
      [],
    );
    await id(
      "source",
      `INSERT INTO sources (id, project_id, file_name, file_type, file_size, file_source, status, updated_at)
       VALUES (gen_random_uuid(), $1, 'a.txt', 'txt', 3, 'upload', 'Completed', now())`,
      [p],
    );
    await id(
      "build",
      `INSERT INTO builds (id, project_id, source_id, method, status, updated_at)
       VALUES (gen_random_uuid(), $1, $2, 'basic', 'Completed with errors', now())`,
      [p, ids.source],
    );
    await id(
      "element",
      `INSERT INTO elements (id, project_id, source_id, build_id, element_id, position, element_type, text)
       VALUES (gen_random_uuid(), $1, $2, $3, 'e1', 0, 'NarrativeText', 'hello')`,
      [p, ids.source, ids.build],
    );
    await id(
      "set",
      `INSERT INTO chunk_sets (id, project_id, source_id, build_id, status, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 'ready', now())`,
      [p, ids.source, ids.build],
    );
    await id(
      "chunk",
      `INSERT INTO chunks (id, project_id, source_id, chunk_set_id, position, text) VALUES (gen_random_uuid(), $1, $2, $3, 0, 'hello')`,
      [p, ids.source, ids.set],
    );
    await id(
      "reembed",
      `INSERT INTO reembedding_jobs (id, project_id, embedding_index_id, status, updated_at)
       VALUES (gen_random_uuid(), $1, $2, 'completed', now())`,
      [p, ids.index],
    );
    // A deleted project's job: reembedding_jobs had no foreign key, so nothing took it away.
    await id(
      "orphan",
      `INSERT INTO reembedding_jobs (id, project_id, embedding_index_id, status, updated_at)
       VALUES (gen_random_uuid(), gen_random_uuid(), $1, 'failed', now())`,
      [ids.index],
    );
    await id(
      "flow",
      `INSERT INTO flows (id, project_id, name, status, updated_at) VALUES (gen_random_uuid(), $1, 'f', 'Not deployed', now())`,
      [p],
    );
    await id(
      "revision",
      `INSERT INTO flow_revisions (id, flow_id, project_id, number, snapshot, status)
       VALUES (gen_random_uuid(), $1, $2, 1, '{}', 'cancelled')`,
      [ids.flow, p],
    );
    await client!.query(`INSERT INTO flow_node_stats (flow_id, node_id, runs) VALUES ($1, 'retrieval-1', 3)`, [
      ids.flow,
    ]);
    await id(
      "nodeIndex",
      `INSERT INTO flow_node_indexes (id, project_id, kind, key, status, updated_at)
       VALUES (gen_random_uuid(), $1, 'graph-rag', 'k', 'failed', now())`,
      [p],
    );
    await id("testSet", `INSERT INTO test_sets (id, project_id, name) VALUES (gen_random_uuid(), $1, 't')`, [p]);
    await id(
      "run",
      `INSERT INTO evaluation_runs (id, project_id, flow_id, test_set_id, target, graph, graph_hash, total_cases, status)
       VALUES (gen_random_uuid(), $1, $2, $3, 'draft', '{}', 'h', 0, 'cancelled')`,
      [p, ids.flow, ids.testSet],
    );
    await id(
      "jobRun",
      `INSERT INTO job_runs (id, function_id, event_name, event, status, updated_at)
       VALUES (gen_random_uuid(), 'ingest', 'quarry/build.requested', '{}', 'completed', now())`,
      [],
    );
    await stop();

    // The next start on the same data directory.
    await start();
  });

  afterAll(async () => {
    await stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("applies the new migrations on the existing data", async () => {
    expect(newMigrations.length).toBeGreaterThan(0);
    expect(await applyMigrations({ url: server!.url })).toEqual(newMigrations);
  });

  it("keeps every status as it was, now in enum columns", async () => {
    const status = async (table: string, id: string) =>
      one<{ status: string; type: string }>(
        `SELECT status::text AS status, pg_typeof(status)::text AS type FROM ${table} WHERE id = $1`,
        [id],
      );
    expect(await status("chunk_sets", ids.set!)).toEqual({ status: "ready", type: `"ChunkSetStatus"` });
    expect(await status("reembedding_jobs", ids.reembed!)).toEqual({
      status: "completed",
      type: `"ReembeddingJobStatus"`,
    });
    expect(await status("flows", ids.flow!)).toEqual({ status: "Not deployed", type: `"FlowStatus"` });
    expect(await status("flow_revisions", ids.revision!)).toEqual({
      status: "cancelled",
      type: `"FlowRevisionStatus"`,
    });
    expect(await status("flow_node_indexes", ids.nodeIndex!)).toEqual({
      status: "failed",
      type: `"FlowNodeIndexStatus"`,
    });
    expect(await status("evaluation_runs", ids.run!)).toEqual({ status: "cancelled", type: `"EvaluationRunStatus"` });
    expect(await status("job_runs", ids.jobRun!)).toEqual({ status: "completed", type: `"JobRunStatus"` });
    expect(await status("builds", ids.build!)).toEqual({ status: "Completed with errors", type: `"BuildStatus"` });
  });

  it("keeps the project's rows, gives flow stats their flow's project and drops only the orphaned job", async () => {
    for (const table of PROJECT_TABLES) {
      const { n } = await one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [
        ids.project,
      ]);
      expect({ table, n }).toEqual({ table, n: 1 });
    }
    expect(await one(`SELECT node_id, runs FROM flow_node_stats WHERE flow_id = $1`, [ids.flow])).toEqual({
      node_id: "retrieval-1",
      runs: 3,
    });
    expect(await one(`SELECT count(*)::int AS n FROM reembedding_jobs WHERE id = $1`, [ids.orphan])).toEqual({ n: 0 });
  });

  it("refuses a row of a project that does not exist, and deletes a project's rows with it", async () => {
    await expect(
      client!.query(
        `INSERT INTO reembedding_jobs (id, project_id, embedding_index_id, updated_at) VALUES (gen_random_uuid(), gen_random_uuid(), $1, now())`,
        [ids.index],
      ),
    ).rejects.toThrow(/reembedding_jobs_project_id_fkey/);

    await client!.query(`DELETE FROM projects WHERE id = $1`, [ids.project]);
    for (const table of PROJECT_TABLES) {
      const { n } = await one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [
        ids.project,
      ]);
      expect({ table, n }).toEqual({ table, n: 0 });
    }
  });
});
