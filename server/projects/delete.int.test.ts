import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { markdownDoc } from "../testing/fixtures";
import { startOwnerQuarry, type OwnerQuarry } from "../testing/owner-quarry";
import { apiClient, appDatabaseUrl } from "../testing/quarry-process";

/**
 * Deleting a project over real HTTP, on a real Quarry: the typed name is checked, a project flagged for deletion
 * refuses its API tokens and dashboard changes (409) while it can still be read, and the job removes every row and
 * stored file of the project and nothing of another team's project.
 */

const OWNER = { email: "owner@delete.test", password: "owner-password-1" };
const DELETING = "This project is being deleted";
const TABLES = [
  "sources",
  "builds",
  "elements",
  "chunks",
  "flows",
  "test_sets",
  "webhook_endpoints",
  "conversations",
  "api_tokens",
];

let oq: OwnerQuarry;
let db: pg.Client;

beforeAll(async () => {
  oq = await startOwnerQuarry(OWNER);
  db = new pg.Client({ connectionString: appDatabaseUrl(oq.quarry) });
  await db.connect();
}, 300_000);

afterAll(async () => {
  await db?.end();
  await oq?.quarry.dispose();
});

const counts = async (projectId: string) => {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [
      projectId,
    ]);
    out[table] = rows[0]!.n;
  }
  return out;
};

/** Two sources (with their files, elements and chunks), a flow, a test set, a webhook and a conversation. */
const fill = async (projectId: string, token: string) => {
  const api = apiClient(oq.quarry, token);
  for (const topic of ["Basalt columns", "Granite domes"]) {
    const res = await api.upload(`${topic}.md`, markdownDoc(topic), { method: "fast" });
    expect(res.status).toBe(200);
    const { build_id } = (await res.json()) as { build_id: string };
    expect((await api.waitForBuild(build_id)).status).toBe("Completed");
  }
  const call = (p: string, input: object) => oq.client.ok(oq.owner, p, { projectId, ...input }, "mutation");
  await call("dashboard.flows.create", { name: "qa" });
  await call("dashboard.evaluation.createTestSet", { name: "golden" });
  await call("dashboard.webhooks.create", { url: "https://hooks.example.com/q", events: ["source.deleted"] });
  await db.query("INSERT INTO conversations (id, project_id, conversation_id) VALUES (gen_random_uuid(), $1, 'c1')", [
    projectId,
  ]);
};

it("refuses a flagged project's tokens, then removes everything of it and nothing of another team's project", async () => {
  const { client, owner, projectId } = oq;
  // Another team's project with the same content: it must come through untouched.
  const team = await client.ok<{ id: string }>(
    owner,
    "dashboard.account.createTeam",
    { name: "Bystanders" },
    "mutation",
  );
  const other = await client.ok<{ id: string }>(
    owner,
    "dashboard.projects.create",
    { teamId: team.id, name: "kept" },
    "mutation",
  );
  const { token: otherToken } = await client.ok<{ token: string }>(
    owner,
    "dashboard.tokens.create",
    { projectId: other.id, name: "kept", permissions: ["read", "write"] },
    "mutation",
  );
  await fill(projectId, oq.quarry.token);
  await fill(other.id, otherToken);
  const before = await counts(projectId);
  const otherBefore = await counts(other.id);
  for (const table of TABLES) expect(before[table], table).toBeGreaterThan(0);
  const files = path.join(oq.quarry.dataDir, "files", "projects");
  expect(existsSync(path.join(files, projectId))).toBe(true);

  // The name must be typed exactly.
  const wrong = await client.call(
    owner,
    "dashboard.projects.delete",
    { projectId, confirmName: "Default" },
    "mutation",
  );
  expect(wrong).toMatchObject({ status: 400, message: "Type the project's name exactly to confirm the deletion" });

  // While a deletion is under way (flagged here by hand so the check cannot race the job): tokens get 409 on reads
  // and writes, the dashboard refuses changes, and the project can still be read for its progress.
  await db.query("UPDATE projects SET deleting_at = now(), deletion_step = 'chunks' WHERE id = $1", [projectId]);
  const api = apiClient(oq.quarry);
  const read = await api.get("");
  expect(read.status).toBe(409);
  expect(await read.json()).toEqual({ detail: DELETING });
  expect((await api.upload("late.md", markdownDoc("Late"))).status).toBe(409);
  const change = await client.call(owner, "dashboard.flows.create", { projectId, name: "late" }, "mutation");
  expect(change).toMatchObject({ status: 409, message: DELETING });
  const progress = await client.ok<{ step: string; done: number; total: number }>(
    owner,
    "dashboard.projects.deletion",
    { projectId },
    "query",
  );
  expect(progress).toMatchObject({ step: "chunks", done: 4, total: 10 });
  expect((await apiClient(oq.quarry, otherToken).get("")).status).toBe(200);
  await db.query("UPDATE projects SET deleting_at = NULL, deletion_step = NULL WHERE id = $1", [projectId]);

  const started = await client.ok<{ step: string }>(
    owner,
    "dashboard.projects.delete",
    { projectId, confirmName: "default" },
    "mutation",
  );
  expect(started.step).toBe("webhooks");
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await client.call(owner, "dashboard.projects.deletion", { projectId }, "query");
    if (res.status === 404) break;
    expect(res.status).toBe(200);
    if (Date.now() > deadline) throw new Error(`deletion still at ${JSON.stringify(res.data)}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  expect(await counts(projectId)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
  const { rows } = await db.query("SELECT id FROM projects WHERE id = $1", [projectId]);
  expect(rows).toEqual([]);
  expect(existsSync(path.join(files, projectId))).toBe(false);
  expect((await api.get("")).status).toBe(401);
  const me = await client.me(owner);
  const listed = me.teams.flatMap((t) => t.projects.map((p) => p.id));
  expect(listed).not.toContain(projectId);
  expect(listed).toContain(other.id);

  expect(await counts(other.id)).toEqual(otherBefore);
  expect(existsSync(path.join(files, other.id))).toBe(true);
  expect((await apiClient(oq.quarry, otherToken).get("")).status).toBe(200);
}, 300_000);
