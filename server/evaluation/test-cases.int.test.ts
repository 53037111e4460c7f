import { afterAll, beforeAll, expect, it } from "vitest";
import type { dashboardClient, Session } from "../testing/dashboard-client";
import { startOwnerQuarry } from "../testing/owner-quarry";
import type { QuarryProcess } from "../testing/quarry-process";

/**
 * Test cases written in the dashboard, over real HTTP: an empty set is made, cases are appended in order and
 * edited; names stay unique per project; another project's cases cannot be edited.
 */

const OWNER = { email: "owner@test-cases.test", password: "owner-password-1" };

type Case = { id: string; position: number; question: string; expectedAnswer: string };

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let projectId: string;
let otherProjectId: string;

const mutate = <T>(path: string, input: Record<string, unknown>) =>
  client.ok<T>(owner, `dashboard.evaluation.${path}`, { projectId, ...input }, "mutation");
const cases = async () =>
  await client.ok<{ total: number; cases: Case[] }>(
    owner,
    "dashboard.evaluation.testCases",
    { projectId, testSet: "handmade" },
    "query",
  );

beforeAll(async () => {
  ({ quarry, client, owner, projectId, otherProjectId } = await startOwnerQuarry(OWNER));
}, 600_000);

afterAll(async () => {
  await quarry?.dispose();
});

it("makes an empty set, appends cases in order and edits them", async () => {
  expect(await mutate("createTestSet", { name: " handmade " })).toMatchObject({ name: "handmade", caseCount: 0 });
  const dup = await client.call(
    owner,
    "dashboard.evaluation.createTestSet",
    { projectId, name: "handmade" },
    "mutation",
  );
  expect(dup).toMatchObject({ status: 409, message: "A test set named handmade already exists" });

  const first = await mutate<Case>("addTestCase", { testSet: "handmade", question: "How is granite cut?" });
  await mutate("addTestCase", { testSet: "handmade", question: "Why polish marble?", expectedAnswer: "To shine." });
  expect(first).toMatchObject({ position: 0, expectedAnswer: "" });
  await mutate("updateTestCase", {
    caseId: first.id,
    question: "How are granite blocks cut?",
    expectedAnswer: "Wire saws.",
  });

  const listed = await cases();
  expect(listed.total).toBe(2);
  expect(listed.cases.map((c) => [c.position, c.question, c.expectedAnswer])).toEqual([
    [0, "How are granite blocks cut?", "Wire saws."],
    [1, "Why polish marble?", "To shine."],
  ]);
  const sets = await client.ok<{ name: string; caseCount: number }[]>(
    owner,
    "dashboard.evaluation.testSets",
    { projectId },
    "query",
  );
  expect(sets).toMatchObject([{ name: "handmade", caseCount: 2 }]);

  const empty = await client.call(
    owner,
    "dashboard.evaluation.addTestCase",
    { projectId, testSet: "handmade", question: "  " },
    "mutation",
  );
  expect(empty.status).toBe(400);
});

it("keeps another project's cases out of reach", async () => {
  const [own] = (await cases()).cases;
  const edit = await client.call(
    owner,
    "dashboard.evaluation.updateTestCase",
    { projectId: otherProjectId, caseId: own!.id, question: "hijacked" },
    "mutation",
  );
  expect(edit).toMatchObject({ status: 404, message: "Test case not found" });
  const add = await client.call(
    owner,
    "dashboard.evaluation.addTestCase",
    { projectId: otherProjectId, testSet: "handmade", question: "q" },
    "mutation",
  );
  expect(add).toMatchObject({ status: 404, message: "Test set handmade not found" });
  expect((await cases()).cases[0]!.question).toBe("How are granite blocks cut?");
});
