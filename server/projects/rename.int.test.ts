import { afterAll, beforeAll, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * A project renamed by an admin: the name moves, a name the team uses is a conflict, and the start-up's
 * QUARRY_INIT_TOKEN keeps its project under the new name instead of making "default" again (which had refused to
 * start: the token belonged to another project).
 */

const TOKEN = "qry_renameinittoken0123456789";
let database: TestDatabase;

beforeAll(async () => {
  database = await startTestDatabase();
  setRuntimeEnv("QUARRY_INIT_TOKEN", TOKEN);
  setRuntimeEnv("QUARRY_INIT_PROJECT", "default");
}, 300_000);

afterAll(async () => database?.stop());

it("renames, refuses a taken name, and keeps the init token's project across starts", async () => {
  const { bootstrap } = await import("../bootstrap");
  const { renameProject, createProject, listProjects } = await import("./service");
  const { verifyApiToken } = await import("../auth/api-tokens");
  expect(await bootstrap()).toEqual({ kind: "init-token", projectName: "default", created: true });
  const [project] = await listProjects();
  expect((await renameProject({ projectId: project!.id, name: "Research notes" })).name).toBe("Research notes");

  await createProject({ teamId: project!.teamId, name: "other" });
  await expect(renameProject({ projectId: project!.id, name: "other" })).rejects.toThrow(
    "This team already has a project named 'other'",
  );
  await expect(renameProject({ projectId: project!.id, name: "-bad" })).rejects.toThrow("Project names are");

  expect(await bootstrap()).toEqual({ kind: "init-token", projectName: "Research notes", created: false });
  expect((await listProjects()).map((p) => p.name).sort()).toEqual(["Research notes", "other"]);
  expect((await verifyApiToken(TOKEN))?.projectId).toBe(project!.id);
});
