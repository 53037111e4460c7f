import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { flowCall } from "../testing/flow-client";
import { apiClient, createToken, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Evaluation as a user drives it, over real HTTP with the app's own job runner and the stand-in chat model as judge
 * and answerer: a test set imported by the CLI, runs of the draft and of the deployed revision through the durable
 * job, compared; the response node's result carries the serving revision's metrics, fresh until the node's upstream
 * changes; a run killed with -9 resumes after its last finished batch; another project's test set and runs are not
 * found.
 */

const OWNER = { email: "owner@evaluation.test", password: "owner-password-1" };
const FLOW = "plain-rag";
const RETRIEVAL = "retrieval-1764000000002";
let quarry: QuarryProcess;
let chat: FakeChatServer;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let projectId = "";

const call = (method: string, suffix: string, body?: unknown) =>
  flowCall(quarry.url, quarry.token, "path", FLOW, method, suffix, body);

const waitForRun = async (runId: string) => {
  for (let i = 0; i < 600; i++) {
    const { run } = await client.ok<{ run: { id: string; status: string } }>(
      owner,
      "dashboard.evaluation.run",
      { projectId, runId },
      "query",
    );
    if (!["queued", "running"].includes(run.status)) return run;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`run ${runId} did not finish`);
};

beforeAll(async () => {
  chat = await startFakeChatServer();
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: chat.baseUrl,
      LLM_API_KEY: "sk-test",
      LLM_MODEL: "gpt-4o-mini",
    },
  });
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  projectId = me.teams[0]!.projects.find((p) => p.name === "default")!.id;
  const api = apiClient(quarry);
  for (const [name, text] of [
    ["granite.md", "# Granite\n\nGranite blocks are cut from the quarry face with diamond wire saws.\n"],
    ["marble.md", "# Marble\n\nMarble slabs are polished with tin oxide until they shine.\n"],
  ]) {
    const { build_id } = (await (await api.upload(name!, text!)).json()) as { build_id: string };
    expect(await api.waitForBuild(build_id)).toMatchObject({ status: "Completed" });
  }
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", path.resolve("examples/flows", `${FLOW}.json`));
  expect((await call("PATCH", "/datasets/dataset-1764000000001", { files: ["granite.md", "marble.md"] })).status).toBe(
    200,
  );
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  await chat?.close();
});

it("runs a test set against the draft and the deployed revision, compares them, and shows fresh metrics", async () => {
  const file = path.join(quarry.dataDir, "stones.csv");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(
    file,
    "question,expected_answer,relevant_files\n" +
      "How are granite blocks cut?,Granite blocks are cut with diamond wire saws.,granite.md\n" +
      "How is marble polished?,Marble slabs are polished with tin oxide.,marble.md\n",
  );
  quarryCli(quarry, "testset", "import", "--project", "default", "--file", file);
  expect(quarryCli(quarry, "testset", "list", "--project", "default")).toMatch(/^stones\t2 cases/);

  const start = (target: unknown) =>
    client.ok<{ id: string }>(
      owner,
      "dashboard.evaluation.start",
      { projectId, flowName: FLOW, testSet: "stones", target },
      "mutation",
    );
  const draft = await waitForRun((await start("draft")).id);
  expect(draft).toMatchObject({ status: "completed", doneCases: 2, judgeModel: "gpt-4o-mini", target: "draft" });
  expect((await call("POST", "/deploy", {})).status).toBe(200);
  const deployedRun = await start("deployed");
  const revision = await waitForRun(deployedRun.id);
  expect(revision).toMatchObject({ status: "completed", target: "revision", revisionNumber: 1 });

  // Judge reasons per case; precision and recall exact from the gold files, the rest judged.
  const page = await client.ok<{
    cases: { metrics: Record<string, { value: number; form: string; reason: string }> }[];
  }>(owner, "dashboard.evaluation.run", { projectId, runId: deployedRun.id }, "query");
  for (const c of page.cases) {
    expect(c.metrics.contextual_recall).toMatchObject({ value: 1, form: "gold-file-ids" });
    expect(c.metrics.faithfulness!.form).toBe("judge");
    expect(c.metrics.faithfulness!.value).toBeGreaterThanOrEqual(0);
    expect(c.metrics.answer_relevancy!.reason).toMatch(/mean cosine similarity/);
  }

  const compared = await client.ok<{
    sameTestSet: boolean;
    a: { label: string };
    b: { label: string };
    cases: { a: object; b: object | null }[];
  }>(owner, "dashboard.evaluation.compare", { projectId, a: draft.id, b: deployedRun.id }, "query");
  expect(compared.sameTestSet).toBe(true);
  expect(compared.b.label).toBe("revision 1");
  expect(compared.cases).toHaveLength(2);
  expect(compared.cases.every((c) => c.b)).toBe(true);

  // The response node's result carries the serving revision's aggregate, fresh; a change upstream makes it stale.
  // The response node's result (`GET {flow_url}/llm` lists llm nodes only; this flow has none).
  const response = async () => {
    const view = await client.ok<{
      results: Record<string, { updatedMetrics: boolean; counters: Record<string, unknown> }>;
    }>(owner, "dashboard.flows.get", { projectId, name: FLOW }, "query");
    return view.results["response-1764000000003"]!;
  };
  const fresh = await response();
  expect(fresh.updatedMetrics).toBe(true);
  expect(fresh.counters.contextualRecall).toBe(1);
  expect(typeof fresh.counters.faithfulness).toBe("number");
  expect((await call("PATCH", `/retrieval/${RETRIEVAL}`, { searchType: "keyword", topK: 3 })).status).toBe(200);
  expect((await response()).updatedMetrics).toBe(false);
}, 240_000);

it("resumes a run killed with -9 after its last finished batch, without judging those cases again", async () => {
  const file = path.join(quarry.dataDir, "long.jsonl");
  const { writeFileSync } = await import("node:fs");
  const question = (i: number) => `How are granite blocks cut, take ${i}?`;
  writeFileSync(
    file,
    Array.from({ length: 25 }, (_, i) =>
      JSON.stringify({ question: question(i), expected_answer: "Granite blocks are cut with diamond wire saws." }),
    ).join("\n"),
  );
  quarryCli(quarry, "testset", "import", "--project", "default", "--file", file);
  chat.setReplyDelay(150);
  const { id } = await client.ok<{ id: string }>(
    owner,
    "dashboard.evaluation.start",
    { projectId, flowName: FLOW, testSet: "long", target: "draft" },
    "mutation",
  );
  for (let i = 0; ; i++) {
    const { run } = await client.ok<{ run: { doneCases: number } }>(
      owner,
      "dashboard.evaluation.run",
      { projectId, runId: id },
      "query",
    );
    if (run.doneCases >= 10) break;
    if (i > 400) throw new Error("the first batch did not finish");
    await new Promise((r) => setTimeout(r, 100));
  }
  // The first batch's step has been stored too (its rows are written just before the step returns).
  await new Promise((r) => setTimeout(r, 1000));
  await quarry.kill("SIGKILL");
  const seen = chat.requests.length;
  chat.setReplyDelay(0);
  await quarry.restart();
  const run = await waitForRun(id);
  expect(run).toMatchObject({ status: "completed", doneCases: 25 });
  const { cases } = await client.ok<{ cases: { position: number }[] }>(
    owner,
    "dashboard.evaluation.run",
    { projectId, runId: id, pageSize: 100 },
    "query",
  );
  expect(cases.map((c) => c.position)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  const again = chat.requests
    .slice(seen)
    .filter((r) =>
      Array.from({ length: 10 }, (_, i) => question(i)).some((q) => r.messages.some((m) => m.content.includes(q))),
    );
  expect(again).toEqual([]);
}, 240_000);

it("does not show another project's test sets or runs", async () => {
  createToken(quarry, "evaluation-other");
  const me = await client.me(owner);
  const other = me.teams[0]!.projects.find((p) => p.name === "evaluation-other")!.id;
  const [run] = await client.ok<{ id: string }[]>(owner, "dashboard.evaluation.runs", { projectId }, "query");
  const notFound = await client.call(owner, "dashboard.evaluation.run", { projectId: other, runId: run!.id }, "query");
  expect(notFound).toMatchObject({ status: 404, message: `Evaluation run ${run!.id} not found` });
  expect(
    await client.call(owner, "dashboard.evaluation.testCases", { projectId: other, testSet: "stones" }, "query"),
  ).toMatchObject({ status: 404, message: "Test set stones not found" });
  expect(await client.ok(owner, "dashboard.evaluation.runs", { projectId: other }, "query")).toEqual([]);
});
