import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { flowCall } from "../testing/flow-client";
import { apiClient, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { settledJobRunsOf, waitForHolder } from "../testing/replicas";
import { startS3StandIn, type S3StandIn } from "../testing/s3-stand-in";
import { realPostgresUrl } from "../testing/scratch-database";

/**
 * Flow deploys and evaluation runs on two app replicas sharing one real Postgres and one S3 bucket (no disk in
 * common): each job runs once whichever replica took the request, a `kill -9` of the replica holding a deploy or an
 * evaluation leaves the other to finish it once the lease has run out, within a bounded time, and the results read
 * the same from either replica. The embedding model is a stand-in on loopback that can hold the deploy's chunk
 * batches (so the kill lands mid-deploy); the chat stand-in is the evaluation's answerer and judge, slowed down so the
 * kill lands mid-run. Real-Postgres only (`*.pg.test.ts`).
 */

const LEASE_MS = 3000;
const OWNER = { email: "owner@replica-jobs.test", password: "replica-jobs-owner-password" };
const DEPLOYED = "reranked-rag";
const CHUNKING = "chunking-1764000000012";
const EVALUATED = "plain-rag";
const EVAL_CASES = 25;

let s3: S3StandIn;
let chat: FakeChatServer;
let models: Server;
let mode: "ok" | "hold" = "ok";
let held = 0;
let a: QuarryProcess;
let b: QuarryProcess;
let sql: pg.Client;
let owner: Session;
let projectId = "";

/** Vectors of 32 numbers from the text; the document's chunks ("Paragraph …") are held, unanswered, in hold mode. */
const startEmbeddingStandIn = async () => {
  const vector = (text: string) => {
    const seed = [...text].reduce((s, c) => s + c.charCodeAt(0), 0);
    const v = Array.from({ length: 32 }, (_, i) => Math.sin(i + seed));
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const input = (JSON.parse(raw) as { input: string[] }).input;
      if (mode === "hold" && input.some((t) => t.includes("Paragraph"))) return void (held += 1);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: vector(t) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
};

const flow = (replica: QuarryProcess, name: string, method: string, suffix: string, body?: unknown) =>
  flowCall(replica.url, a.token, "path", name, method, suffix, body);

const evaluationRun = (replica: QuarryProcess, runId: string) =>
  dashboardClient(replica.url).ok<{ run: { status: string; doneCases: number }; cases: { position: number }[] }>(
    owner,
    "dashboard.evaluation.run",
    { projectId, runId, pageSize: 100 },
    "query",
  );

const startEvaluation = (replica: QuarryProcess, testSet: string) =>
  dashboardClient(replica.url).ok<{ id: string }>(
    owner,
    "dashboard.evaluation.start",
    { projectId, flowName: EVALUATED, testSet, target: "draft" },
    "mutation",
  );

/** Polls until `done` holds for what `read` returns, or the time is up (then returns the last reading). */
const pollUntil = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
};

const importTestSet = (name: string, rows: { question: string; expected_answer: string }[]) => {
  const file = path.join(a.dataDir, `${name}.jsonl`);
  writeFileSync(file, rows.map((row) => JSON.stringify(row)).join("\n"));
  quarryCli(a, "testset", "import", "--project", "default", "--file", file);
};

beforeAll(async () => {
  if (!realPostgresUrl())
    throw new Error("replicas-jobs.pg.test.ts runs on a real Postgres: set QUARRY_TEST_POSTGRES_URL");
  s3 = await startS3StandIn();
  chat = await startFakeChatServer();
  models = await startEmbeddingStandIn();
  const env = {
    ...s3.env,
    QUARRY_JOB_LEASE_MS: String(LEASE_MS),
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_BASE_URL: `http://127.0.0.1:${(models.address() as AddressInfo).port}/v1`,
    EMBEDDING_API_KEY: "sk-test",
    EMBEDDING_MODEL: "fake-embed-32",
    LLM_PROVIDER: "openai",
    LLM_BASE_URL: chat.baseUrl,
    LLM_API_KEY: "sk-test",
    LLM_MODEL: "gpt-4o-mini",
  };
  a = await startQuarry({ env: { ...env, QUARRY_ADMIN_EMAIL: OWNER.email, QUARRY_ADMIN_PASSWORD: OWNER.password } });
  b = await startQuarry({ env: { ...env, DATABASE_URL: a.databaseUrl! } });
  sql = new pg.Client({ connectionString: a.databaseUrl });
  sql.on("error", () => undefined);
  await sql.connect();
  owner = await dashboardClient(b.url).signIn(OWNER.email, OWNER.password);
  const me = await dashboardClient(a.url).me(owner);
  projectId = me.teams[0]!.projects.find((p) => p.name === "default")!.id;

  const stone = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} on quarry stone number ${i}.`).join("\n\n");
  const uploads: [string, string][] = [
    ["stone.txt", stone],
    ["granite.md", "# Granite\n\nGranite blocks are cut from the quarry face with diamond wire saws.\n"],
    ["marble.md", "# Marble\n\nMarble slabs are polished with tin oxide until they shine.\n"],
  ];
  for (const [i, [name, text]] of uploads.entries()) {
    const api = apiClient({ url: [a, b][i % 2]!.url, token: a.token });
    const { build_id } = (await (await api.upload(name, text)).json()) as { build_id: string };
    expect(await api.waitForBuild(build_id, 180_000)).toMatchObject({ status: "Completed" });
  }
  for (const name of [DEPLOYED, EVALUATED])
    quarryCli(a, "flow", "import", "--project", "default", "--file", path.resolve("examples/flows", `${name}.json`));
  expect((await flow(a, DEPLOYED, "PATCH", "/datasets/dataset-1764000000011", { files: ["stone.txt"] })).status).toBe(
    200,
  );
  const files = { files: ["granite.md", "marble.md"] };
  expect((await flow(b, EVALUATED, "PATCH", "/datasets/dataset-1764000000001", files)).status).toBe(200);
  importTestSet("stones", [
    { question: "How are granite blocks cut?", expected_answer: "Granite blocks are cut with diamond wire saws." },
    { question: "How is marble polished?", expected_answer: "Marble slabs are polished with tin oxide." },
  ]);
  importTestSet(
    "long",
    Array.from({ length: EVAL_CASES }, (_, i) => ({
      question: `How are granite blocks cut, take ${i}?`,
      expected_answer: "Granite blocks are cut with diamond wire saws.",
    })),
  );
}, 600_000);

afterAll(async () => {
  await sql?.end();
  // b first: a's dispose drops the database both use.
  await b?.dispose();
  await a?.dispose();
  await chat?.close();
  models?.closeAllConnections();
  models?.close();
  await s3?.close();
});

/** The flow's summary as each replica serves it. */
const summaries = async (name: string) =>
  Promise.all([a, b].map(async (replica) => (await flow(replica, name, "GET", "")).json()));

/** The evaluation cases of a run in the table: rows, and distinct (position, node) pairs. */
const storedCases = async (runId: string) =>
  (
    await sql.query<{ n: number; distinct: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (position, node_id))::int AS distinct
         FROM evaluation_cases WHERE run_id = $1`,
      [runId],
    )
  ).rows[0]!;

describe("deploys and evaluations on two replicas", () => {
  it(
    "runs each once, whichever replica took the request, and reads the same from both",
    { timeout: 300_000 },
    async () => {
      const deployed = await flow(b, DEPLOYED, "POST", "/deploy", {});
      expect(deployed.status, deployed.text).toBe(200);
      const revisionId = deployed.json().revision_id as string;
      expect(await settledJobRunsOf(sql, "deploy-flow", "revisionId", revisionId)).toEqual([
        { status: "completed", locked_by: null },
      ]);
      for (const summary of await summaries(DEPLOYED))
        expect(summary).toMatchObject({ status: "Deployed", revision_id: revisionId, deploy: { status: "ready" } });
      for (const replica of [a, b])
        expect((await flow(replica, DEPLOYED, "POST", "", { query: "stone number 7" })).json().total).toBeGreaterThan(
          0,
        );

      const { id } = await startEvaluation(a, "stones");
      const run = await pollUntil(
        () => evaluationRun(b, id),
        (r) => !["queued", "running"].includes(r.run.status),
        120_000,
      );
      expect(run.run).toMatchObject({ status: "completed", doneCases: 2 });
      expect(await settledJobRunsOf(sql, "run-evaluation", "runId", id)).toEqual([
        { status: "completed", locked_by: null },
      ]);
      expect(await storedCases(id)).toMatchObject({ n: 2, distinct: 2 });
      expect((await evaluationRun(a, id)).cases).toEqual(run.cases);
    },
  );
});

describe("a replica killed in the middle of a job", () => {
  it(
    "leaves a deploy to the other replica, which finishes it once the lease runs out",
    { timeout: 300_000 },
    async () => {
      mode = "hold";
      held = 0;
      expect(
        (await flow(a, DEPLOYED, "PATCH", `/chunking/${CHUNKING}`, { chunkSize: 400, chunkOverlap: 40 })).status,
      ).toBe(200);
      // The request waits for the deploy; it ends with the replica it went to if that one is killed.
      const pending = flow(a, DEPLOYED, "POST", "/deploy", {}).catch(() => null);
      await pollUntil(
        async () => held,
        (n) => n > 0,
        60_000,
      );
      expect(held).toBeGreaterThan(0);
      const building = (await flow(b, DEPLOYED, "GET", "")).json();
      expect(building.deploy).toMatchObject({ status: "building", step: `chunking ${CHUNKING}` });
      const revisionId = building.deploy.revision_id as string;
      const holder = await waitForHolder(sql, [a, b], {
        functionId: "deploy-flow",
        field: "revisionId",
        id: revisionId,
      });
      const survivor = holder === a ? b : a;
      await holder.kill("SIGKILL");
      const killedAt = Date.now();
      mode = "ok";

      const done = await pollUntil(
        async () => (await flow(survivor, DEPLOYED, "GET", "")).json(),
        (summary) => summary.deploy.status !== "building",
        120_000,
      );
      const tookMs = Date.now() - killedAt;
      expect(done, survivor.output()).toMatchObject({
        status: "Deployed",
        revision_id: revisionId,
        deploy: { status: "ready", progress: 100 },
      });
      expect(await settledJobRunsOf(sql, "deploy-flow", "revisionId", revisionId)).toEqual([
        { status: "completed", locked_by: null },
      ]);
      // Taken over after the lease (a replica cannot tell a dead peer from a slow one), within a minute.
      expect(tookMs).toBeGreaterThan(LEASE_MS / 2);
      expect(tookMs).toBeLessThan(60_000);
      process.stdout.write(`the other replica finished the killed replica's deploy ${tookMs} ms after the kill\n`);
      // The request sent to a answers 200 when a survived (it waited on the revision the other replica finished).
      const answer = await pending;
      if (holder !== a) expect(answer?.status, answer?.text).toBe(200);

      await holder.restart();
      for (const summary of await summaries(DEPLOYED))
        expect(summary).toMatchObject({ status: "Deployed", revision_id: revisionId });
      const chunking = (await flow(holder, DEPLOYED, "GET", "/chunking")).json()[0].data;
      expect(chunking.config).toMatchObject({ chunkSize: 400 });
      for (const replica of [a, b])
        expect((await flow(replica, DEPLOYED, "POST", "", { query: "stone number 7" })).json().total).toBeGreaterThan(
          0,
        );
    },
  );

  it(
    "leaves an evaluation run to the other replica, which finishes it once the lease runs out",
    { timeout: 300_000 },
    async () => {
      chat.setReplyDelay(150);
      const { id } = await startEvaluation(b, "long");
      const holder = await waitForHolder(sql, [a, b], { functionId: "run-evaluation", field: "runId", id });
      const survivor = holder === a ? b : a;
      // Mid-run: some cases done, not all.
      const midway = await pollUntil(
        () => evaluationRun(survivor, id),
        (r) => r.run.doneCases > 0,
        120_000,
      );
      expect(midway.run.status).toBe("running");
      expect(midway.run.doneCases).toBeLessThan(EVAL_CASES);
      await holder.kill("SIGKILL");
      const killedAt = Date.now();
      chat.setReplyDelay(0);

      const run = await pollUntil(
        () => evaluationRun(survivor, id),
        (r) => !["queued", "running"].includes(r.run.status),
        120_000,
      );
      const tookMs = Date.now() - killedAt;
      expect(run.run, survivor.output()).toMatchObject({ status: "completed", doneCases: EVAL_CASES });
      expect(run.cases.map((c) => c.position)).toEqual(Array.from({ length: EVAL_CASES }, (_, i) => i));
      expect(await storedCases(id)).toMatchObject({ n: EVAL_CASES, distinct: EVAL_CASES });
      expect(await settledJobRunsOf(sql, "run-evaluation", "runId", id)).toEqual([
        { status: "completed", locked_by: null },
      ]);
      expect(tookMs).toBeGreaterThan(LEASE_MS / 2);
      expect(tookMs).toBeLessThan(60_000);
      process.stdout.write(`the other replica finished the killed replica's evaluation ${tookMs} ms after the kill\n`);

      await holder.restart();
      expect((await evaluationRun(holder, id)).cases).toEqual(run.cases);
    },
  );
});
