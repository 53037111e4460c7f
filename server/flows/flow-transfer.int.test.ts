import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * Flows in and out as files (./flow-transfer.ts) on the embedded Postgres: a template becomes a flow (numbered when
 * its name is taken), an export imported under another name is the same flow, a duplicate gets a free name, a file
 * that is not a flow file is refused with where it is wrong, and nothing crosses to another project.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await startTestDatabase();
}, 300_000);

afterAll(async () => database?.stop());

it("creates from templates, exports, imports, duplicates, and refuses what is not a flow file", async () => {
  const { ensureProject } = await import("../projects/service");
  const transfer = await import("./flow-transfer");
  const { listFlows } = await import("./service");
  const project = (await ensureProject("transfer")).id;
  const other = (await ensureProject("transfer-other")).id;

  const templates = transfer.flowTemplates();
  expect(templates.map((t) => t.name)).toEqual(["plain-rag", "reranked-rag", "graph-rag", "raptor-rag"]);
  expect(templates.find((t) => t.name === "raptor-rag")!.kinds).toContain("raptor-rag");

  expect(await transfer.createFromTemplate(project, "plain-rag")).toEqual({ name: "plain-rag" });
  expect(await transfer.createFromTemplate(project, "plain-rag")).toEqual({ name: "plain-rag-2" });
  await expect(transfer.createFromTemplate(project, "nope")).rejects.toThrow("No template named 'nope'");

  const exported = await transfer.exportFlowFile(project, "plain-rag");
  expect(exported).toMatchObject({ format: "quarry-flow/1", name: "plain-rag" });
  expect(await transfer.importFlowFile(project, exported, { name: "imported" })).toEqual({ name: "imported" });
  const again = await transfer.exportFlowFile(project, "imported");
  expect({ ...again, name: "plain-rag" }).toEqual(exported);

  expect(await transfer.duplicateFlow(project, "imported")).toEqual({ name: "imported-copy" });
  expect(await transfer.duplicateFlow(project, "imported")).toEqual({ name: "imported-copy-2" });

  await expect(transfer.importFlowFile(project, { format: "other/9", name: "x" })).rejects.toThrow(
    'Not a Quarry flow file: format: format must be "quarry-flow/1"',
  );
  await expect(transfer.importFlowFile(project, "just text")).rejects.toThrow("Not a Quarry flow file");
  await expect(transfer.importFlowFile(project, exported)).rejects.toThrow(/already exists/);

  expect((await listFlows(project)).map((f) => f.name).sort()).toEqual([
    "imported",
    "imported-copy",
    "imported-copy-2",
    "plain-rag",
    "plain-rag-2",
  ]);
  expect(await listFlows(other)).toEqual([]);
  await expect(transfer.exportFlowFile(other, "plain-rag")).rejects.toThrow();
});
