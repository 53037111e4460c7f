import { afterAll, beforeAll, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations } from "../postgres/migrate";
import type { ChunkSetStatus } from "../generated/prisma/enums";

/** A failed deploy's half-built flow chunk sets are deleted, but not while another deploy of the project builds. */

let server: EmbeddedPostgres;

beforeAll(async () => {
  server = await startEmbeddedPostgres({ port: 0 });
  await applyMigrations({ url: server.url });
  setRuntimeEnv("DATABASE_URL", server.url);
});
afterAll(async () => {
  const { disconnectDb } = await import("../db");
  await disconnectDb();
  await server?.stop();
});

it("a failed deploy leaves no half-built chunk set behind, and spares the sets of a deploy still running", async () => {
  const { db } = await import("../db");
  const { ensureProject } = await import("../projects/service");
  const { failRevision } = await import("./deploy");
  const project = await ensureProject("unfinished-sets");
  const source = await db.source.create({
    data: { projectId: project.id, fileName: "a.txt", fileType: "txt", fileSize: 0, fileSource: "local file" },
  });
  const flow = await db.flow.create({ data: { projectId: project.id, name: "f" } });
  const revision = (number: number) =>
    db.flowRevision.create({ data: { flowId: flow.id, projectId: project.id, number, snapshot: {} } });
  const set = (status: ChunkSetStatus) =>
    db.chunkSet.create({ data: { projectId: project.id, sourceId: source.id, ownerKind: "flow_chunking", status } });
  const [failing, running] = [await revision(1), await revision(2)];
  const [halfBuilt, ready, sourceSet] = [
    await set("building"),
    await set("ready"),
    await db.chunkSet.create({ data: { projectId: project.id, sourceId: source.id, status: "building" } }),
  ];
  await db.chunk.create({
    data: { projectId: project.id, sourceId: source.id, chunkSetId: halfBuilt.id, position: 0, text: "half" },
  });
  const alive = async () => (await db.chunkSet.findMany({ select: { id: true } })).map((s) => s.id).sort();

  await failRevision(failing.id, new Error("model down"));
  expect(await alive()).toEqual([halfBuilt.id, ready.id, sourceSet.id].sort());

  await failRevision(running.id, new Error("model down"));
  expect(await alive()).toEqual([ready.id, sourceSet.id].sort());
  expect(await db.chunk.count({ where: { chunkSetId: halfBuilt.id } })).toBe(0);
  expect(await db.flow.findUniqueOrThrow({ where: { id: flow.id } })).toMatchObject({ status: "Failed" });
});
