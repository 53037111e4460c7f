import { afterAll, beforeAll, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations } from "../postgres/migrate";

/**
 * A deploy request answers as soon as its revision leaves `building` (deploy.ts waitForRevision), and its caller
 * reads the flow at once: so when that status commits, the flow's status and the draft's node counts must already
 * say how the deploy ended. A deferred trigger records what any reader sees at the commit that changes the status
 * (no timing involved: it runs inside that commit).
 */

let server: EmbeddedPostgres;
const NODE = "raptor-rag-1764000000043";

beforeAll(async () => {
  server = await startEmbeddedPostgres({ port: 0 });
  await applyMigrations({ url: server.url });
  setRuntimeEnv("DATABASE_URL", server.url);
  const { db } = await import("../db");
  await db.$executeRawUnsafe(
    `CREATE TABLE seen_at_status (revision_id uuid, status text, flow_status text, node_state jsonb)`,
  );
  await db.$executeRawUnsafe(`
    CREATE FUNCTION note_status() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO seen_at_status SELECT NEW.id, NEW.status::text, f.status::text, f.node_state FROM flows f WHERE f.id = NEW.flow_id;
      RETURN NULL;
    END $$`);
  await db.$executeRawUnsafe(`
    CREATE CONSTRAINT TRIGGER note_status AFTER UPDATE ON flow_revisions DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION note_status()`);
}, 120_000);

afterAll(async () => {
  const { disconnectDb } = await import("../db");
  await disconnectDb();
  await server?.stop();
});

const seen = async (revisionId: string) => {
  const { db } = await import("../db");
  return db.$queryRaw<{ status: string; flow_status: string; node_state: Record<string, { counts?: object }> }[]>`
    SELECT status, flow_status, node_state FROM seen_at_status WHERE revision_id = ${revisionId}::uuid`;
};

it("a deploy's revision reads ready or failed only once the flow and its node counts say so", async () => {
  const { db } = await import("../db");
  const { ensureProject } = await import("../projects/service");
  const { activateRevision, failRevision } = await import("./deploy");
  const project = await ensureProject("deploy-end-state");
  const graph = {
    nodes: [{ id: NODE, type: "raptor-rag", data: { name: "Tree", config: { topK: 10, max_level: 3 } } }],
    edges: [],
  };
  // As a dataset PATCH leaves the draft: the node waits for a deploy and has no counts yet.
  const flow = await db.flow.create({
    data: { projectId: project.id, name: "f", graph, nodeState: { [NODE]: { updated: false, waiting: true } } },
  });
  const counts = { total_chunks: 40, tree_levels: 2, total_clusters: 9, total_summaries: 9 };
  const index = await db.flowNodeIndex.create({
    data: { projectId: project.id, kind: "raptor-rag", key: "k", chunkSetIds: [], status: "ready", counts },
  });
  const revision = (number: number) =>
    db.flowRevision.create({
      data: {
        flowId: flow.id,
        projectId: project.id,
        number,
        snapshot: { ...graph, prompts: [] },
        nodeIndexes: { [NODE]: index.id },
      },
    });

  const first = await revision(1);
  await activateRevision(first.id);
  const [ready] = await seen(first.id);
  expect(ready).toMatchObject({ status: "ready", flow_status: "Deployed" });
  expect(ready!.node_state[NODE]).toMatchObject({ updated: true, waiting: false, counts });

  const second = await revision(2);
  await failRevision(second.id, new Error("model down"));
  expect(await seen(second.id)).toEqual([expect.objectContaining({ status: "failed", flow_status: "Failed" })]);
}, 120_000);
