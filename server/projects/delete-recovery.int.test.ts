import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runIdFor } from "../jobs/event-intake";
import { markdownDoc } from "../testing/fixtures";
import { startOwnerQuarry, type OwnerQuarry } from "../testing/owner-quarry";
import { apiClient, appDatabaseUrl } from "../testing/quarry-process";

/**
 * A project deletion that does not go to plan, on a real Quarry over real HTTP: a step that keeps failing leaves the
 * project flagged with the reason, its running builds cancelled, until an admin retries it; and a Quarry killed with
 * -9 mid-deletion finishes the deletion after its restart. States are set up by hand in the database (a trigger
 * that refuses a step's deletes, a project flagged at a later step with no job yet, a job run that failed with its
 * failure never recorded), never caught mid-flight.
 */

const OWNER = { email: "owner@delete-recovery.test", password: "owner-password-1" };
const TABLES = ["sources", "builds", "elements", "chunks", "flows", "conversations", "api_tokens"];

let oq: OwnerQuarry;

beforeAll(async () => {
  oq = await startOwnerQuarry(OWNER);
}, 300_000);

afterAll(async () => {
  await oq?.quarry.dispose();
});

/** One query on a fresh connection: the embedded database's port changes when Quarry restarts. */
const sql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => {
  const client = new pg.Client({ connectionString: appDatabaseUrl(oq.quarry) });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
};

const counts = async (projectId: string) => {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [
      projectId,
    ]);
    out[table] = row!.n;
  }
  return out;
};

const call = (path: string, input: object, type: "query" | "mutation") => oq.client.call(oq.owner, path, input, type);

/** A new project of the owner's team with a built source, a flow, a conversation and an API token. */
const filledProject = async (name: string) => {
  const { owner, client } = oq;
  const me = await client.me(owner);
  const project = await client.ok<{ id: string }>(
    owner,
    "dashboard.projects.create",
    { teamId: me.teams[0]!.id, name },
    "mutation",
  );
  const { token } = await client.ok<{ token: string }>(
    owner,
    "dashboard.tokens.create",
    { projectId: project.id, name: "t", permissions: ["read", "write"] },
    "mutation",
  );
  const api = apiClient(oq.quarry, token);
  const res = await api.upload("Basalt.md", markdownDoc("Basalt columns"), { method: "fast" });
  expect(res.status).toBe(200);
  const { build_id } = (await res.json()) as { build_id: string };
  expect((await api.waitForBuild(build_id)).status).toBe("Completed");
  await client.ok(owner, "dashboard.flows.create", { projectId: project.id, name: "qa" }, "mutation");
  await sql("INSERT INTO conversations (id, project_id, conversation_id) VALUES (gen_random_uuid(), $1, 'c1')", [
    project.id,
  ]);
  for (const table of TABLES) expect((await counts(project.id))[table], table).toBeGreaterThan(0);
  return { projectId: project.id, buildId: build_id };
};

type Status = { step: string; error: string | null } | null;

/** Polls the deletion's status until `done` says so (generous deadline: retries back off for half a minute). */
const waitForDeletion = async (projectId: string, done: (res: { status: number; data: Status }) => boolean) => {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const res = (await call("dashboard.projects.deletion", { projectId }, "query")) as { status: number; data: Status };
    if (done(res)) return res;
    if (Date.now() > deadline) throw new Error(`deletion at ${JSON.stringify(res)}\n${oq.quarry.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

const gone = (res: { status: number }) => res.status === 404;

it("records a deletion that failed for good, with its builds cancelled, and finishes it on retry", async () => {
  const { projectId, buildId } = await filledProject("held");
  const keptBefore = await counts(oq.otherProjectId);
  // A build still running when the deletion starts (its job finished; the row says Processing, as a crash leaves it).
  await sql("UPDATE builds SET status = 'Processing', finished_at = NULL WHERE id = $1", [buildId]);
  // The conversations step cannot delete this project's conversation: every attempt fails the same way.
  await sql(`CREATE OR REPLACE FUNCTION test_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'held by the test'; END $$`);
  await sql(`CREATE TRIGGER test_hold_conversations BEFORE DELETE ON conversations FOR EACH ROW
    WHEN (OLD.project_id = '${projectId}'::uuid) EXECUTE FUNCTION test_refuse_delete()`);

  // Only a failed deletion can be retried: not a project that is not being deleted.
  expect(await call("dashboard.projects.retryDeletion", { projectId }, "mutation")).toMatchObject({ status: 409 });
  const started = await oq.client.ok<Status>(
    oq.owner,
    "dashboard.projects.delete",
    { projectId, confirmName: "held" },
    "mutation",
  );
  expect(started).toMatchObject({ step: "webhooks", error: null });

  const failed = await waitForDeletion(projectId, (res) => res.status === 200 && !!res.data?.error);
  expect(failed.data).toMatchObject({ step: "conversations" });
  expect(failed.data!.error).toMatch(/^Could not remove conversations: /);
  expect(failed.data!.error).toContain("held by the test");
  const [build] = await sql<{ status: string; error: string }>("SELECT status, error FROM builds WHERE id = $1", [
    buildId,
  ]);
  expect(build).toEqual({ status: "Processing failed", error: "Cancelled: the project is being deleted" });
  const [source] = await sql<{ status: string }>(
    "SELECT s.status FROM sources s JOIN builds b ON b.source_id = s.id WHERE b.id = $1",
    [buildId],
  );
  expect(source!.status).toBe("Failed");
  // Still flagged: its changes are refused (409), the retry is not.
  expect(await call("dashboard.flows.create", { projectId, name: "late" }, "mutation")).toMatchObject({ status: 409 });

  await sql("DROP TRIGGER test_hold_conversations ON conversations");
  await sql("DROP FUNCTION test_refuse_delete()");
  const retried = await oq.client.ok<Status>(oq.owner, "dashboard.projects.retryDeletion", { projectId }, "mutation");
  expect(retried).toMatchObject({ step: "conversations", error: null });
  await waitForDeletion(projectId, gone);
  expect(await counts(projectId)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
  expect(await sql("SELECT id FROM projects WHERE id = $1", [projectId])).toEqual([]);
  expect(await counts(oq.otherProjectId)).toEqual(keptBefore);
}, 400_000);

it("finishes a deletion after Quarry is killed with -9 in the middle of it", async () => {
  const { projectId } = await filledProject("doomed");
  const keptBefore = await counts(oq.otherProjectId);
  // Mid-deletion, held there deterministically: flagged at a later step, its job not started yet (as a crash between
  // the flag and the job's event leaves it; when the run exists, the executor resumes it on its own).
  await sql("UPDATE projects SET deleting_at = now(), deletion_step = 'chunks' WHERE id = $1", [projectId]);
  expect((await waitForDeletion(projectId, () => true)).data).toMatchObject({ step: "chunks", error: null });
  // A deletion under way is not a failed one.
  expect(await call("dashboard.projects.retryDeletion", { projectId }, "mutation")).toMatchObject({ status: 409 });

  await oq.quarry.kill("SIGKILL");
  await oq.quarry.restart();

  await waitForDeletion(projectId, gone);
  expect(await counts(projectId)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
  expect(await sql("SELECT id FROM projects WHERE id = $1", [projectId])).toEqual([]);
  expect(await counts(oq.otherProjectId)).toEqual(keptBefore);
}, 400_000);

it("records a deletion whose run failed just before a crash, instead of leaving it deleting forever", async () => {
  const { projectId } = await filledProject("stranded");
  // The state a crash between the run's failure and its recording leaves: flagged, no error, and the attempt's run
  // failed (so the event re-sent on start starts nothing), with no onFailure run.
  await sql("UPDATE projects SET deleting_at = now(), deletion_step = 'chunks' WHERE id = $1", [projectId]);
  const eventId = `project-delete-${projectId}`;
  const event = { id: eventId, name: "project/delete.requested", data: { projectId }, ts: Date.now() };
  await sql(
    `INSERT INTO job_runs (id, function_id, event_name, event, status, error, updated_at)
     VALUES ($1, 'quarry-delete-project', $2, $3, 'failed', 'disk full', now())`,
    [runIdFor(eventId, "quarry-delete-project"), event.name, JSON.stringify(event)],
  );

  await oq.quarry.kill("SIGKILL");
  await oq.quarry.restart();

  const failed = await waitForDeletion(projectId, (res) => res.status === 200 && !!res.data?.error);
  expect(failed.data).toMatchObject({ step: "chunks", error: "Could not remove chunks: disk full" });
  // Recorded as failed, it can be retried, and the retry (a new attempt, a new run) finishes it.
  const retried = await oq.client.ok<Status>(oq.owner, "dashboard.projects.retryDeletion", { projectId }, "mutation");
  expect(retried).toMatchObject({ step: "chunks", error: null });
  await waitForDeletion(projectId, gone);
  expect(await counts(projectId)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
}, 400_000);
