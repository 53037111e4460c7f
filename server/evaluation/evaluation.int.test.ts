import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";

/**
 * Evaluation on the embedded Postgres with documents indexed by the pipeline's own steps, the run's steps executed in
 * this process (the job's orchestration is run-evaluation.test.ts; over HTTP with the job runner,
 * evaluation-api.int.test.ts): test-set import, metrics without a model (null with the reason; exact precision and
 * recall from gold labels), the stand-in chat model as judge, the nodes' updatedMetrics, cancelling, tenant isolation.
 */

let database: TestDatabase;
let chat: FakeChatServer;
let projectId = "";
let otherProjectId = "";
const ids: Record<string, string> = {};
const RESPONSE = "response-1764000000003";
const RETRIEVAL = "retrieval-1764000000002";

const docs = {
  "granite.md": "# Granite\n\nGranite blocks are cut from the quarry face with diamond wire saws.\n",
  "marble.md": "# Marble\n\nMarble slabs are polished with tin oxide until they shine.\n",
  "basalt.md": "# Basalt\n\nBasalt is crushed into gravel for road beds and railway ballast.\n",
};

const svc = async () => ({
  ...(await import("./testsets")),
  ...(await import("./runs")),
  ...(await import("./run-steps")),
});

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n");

beforeAll(async () => {
  database = await startTestDatabase({ keywordEngine: true });
  const { ensureProject } = await import("../projects/service");
  const { indexDocuments } = await import("../testing/index-documents");
  projectId = (await ensureProject("evaluation")).id;
  otherProjectId = (await ensureProject("evaluation other tenant")).id;
  const indexed = await indexDocuments({
    projectId,
    documents: Object.entries(docs).map(([fileName, content]) => ({ fileName, content })),
  });
  for (const s of indexed) ids[s.fileName] = s.sourceId;
  const other = await indexDocuments({
    projectId: otherProjectId,
    documents: [{ fileName: "secret.md", content: "# S\n\nSecret.\n" }],
  });
  ids["secret.md"] = other[0]!.sourceId;
  const { FlowFile } = await import("../flows/flow-file");
  const { saveFlow } = await import("../flows/service");
  const file = FlowFile.parse(JSON.parse(readFileSync(path.resolve("examples/flows/plain-rag.json"), "utf8")));
  file.nodes[0]!.data.config = { files: Object.keys(docs), fileIds: Object.keys(docs).map((n) => ids[n]) };
  await saveFlow({ projectId, name: file.name, graph: file, prompts: file.prompts });
  chat = await startFakeChatServer();
}, 240_000);

afterAll(async () => {
  await chat?.close();
  await database?.stop();
});

describe("test sets", () => {
  it("imports JSONL and CSV, resolving file names to the project's file ids", async () => {
    const s = await svc();
    const set = await s.importTestSet({
      projectId,
      name: "stones",
      format: "jsonl",
      content: jsonl([
        {
          question: "How are granite blocks cut?",
          expected_answer: "With diamond wire saws.",
          relevant_files: ["granite.md"],
        },
        { question: "What is basalt crushed into?", expected_answer: "Gravel.", relevant_file_ids: [ids["basalt.md"]] },
      ]),
    });
    expect(set.caseCount).toBe(2);
    const { cases } = await s.listTestCases(projectId, "stones", 1, 10);
    expect(cases.map((c) => c.relevantFileIds)).toEqual([[ids["granite.md"]], [ids["basalt.md"]]]);
    const csv = await s.importTestSet({
      projectId,
      name: "stones-csv",
      format: "csv",
      content: `question,expected_answer,relevant_passages\n"How is marble polished?","With tin oxide.","polished with tin oxide"\n`,
    });
    expect(csv.caseCount).toBe(1);
  });

  it("refuses bad rows naming the line, duplicates, and another project's files", async () => {
    const s = await svc();
    const bad = (content: string, format: "jsonl" | "csv" = "jsonl") =>
      s.importTestSet({ projectId, name: "bad", format, content });
    await expect(bad('{"question":"ok"}\n{"question":1,"relevant_files":["nope.md"]}')).rejects.toThrow(
      "Line 2: no file named nope.md in this project",
    );
    await expect(bad(`{"question":"q","relevant_file_ids":["${ids["secret.md"]}"]}`)).rejects.toThrow(
      `Line 1: no file with id ${ids["secret.md"]} in this project`,
    );
    await expect(bad('question\nq1\n"unterminated', "csv")).rejects.toThrow(/^Line 3: CSV/);
    await expect(
      s.importTestSet({ projectId, name: "stones", format: "jsonl", content: '{"question":"q"}' }),
    ).rejects.toThrow("A test set named stones already exists");
    expect((await s.listTestSets(projectId)).map((t) => t.name).sort()).toEqual(["stones", "stones-csv"]);
  });

  it("is not found from another project", async () => {
    const s = await svc();
    expect(await s.listTestSets(otherProjectId)).toEqual([]);
    await expect(s.listTestCases(otherProjectId, "stones", 1, 10)).rejects.toThrow("Test set stones not found");
    await expect(s.deleteTestSet(otherProjectId, "stones")).rejects.toThrow("Test set stones not found");
  });
});

describe("evaluation runs", () => {
  let noModelRun = "";
  let judgedRun = "";

  it("without a model: exact precision and recall from gold labels, the rest null with the reason", async () => {
    const s = await svc();
    const run = await s.createEvaluationRun({ projectId, flowName: "plain-rag", testSet: "stones", target: "draft" });
    noModelRun = run.id;
    expect(await s.runEvaluationInline(run.id)).toEqual({ status: "completed" });
    const { run: done, cases } = await s.getEvaluationRun(projectId, run.id);
    expect(done).toMatchObject({ status: "completed", doneCases: 2, judgeModel: null, target: "draft" });
    expect(cases).toHaveLength(2);
    for (const c of cases) {
      expect(c.nodeId).toBe(RESPONSE);
      expect(c.answer).toBeTruthy();
      expect(c.retrieved.length).toBeGreaterThan(0);
      expect(c.metrics.faithfulness).toEqual({
        value: null,
        form: "none",
        reason: "no chat model configured to judge",
      });
      expect(c.metrics.answer_relevancy!.value).toBeNull();
      expect(c.metrics.contextual_precision!.form).toBe("gold-file-ids");
      // The gold document is retrieved; recall over one gold document is exactly 1.
      expect(c.metrics.contextual_recall).toMatchObject({ value: 1, form: "gold-file-ids" });
      expect(c.metrics.contextual_precision!.value).toBeGreaterThan(0);
    }
    // Precision is the RAGAS formula over the rank where the gold document sits (one chunk per document here).
    const granite = cases.find((c) => c.question.includes("granite"))!;
    const rank = granite.retrieved.findIndex((r) => r.fileId === ids["granite.md"]);
    expect(granite.metrics.contextual_precision!.value).toBeCloseTo(1 / (rank + 1));
    const aggregate = done.aggregates[RESPONSE]!;
    expect(aggregate.metrics.faithfulness).toMatchObject({
      mean: null,
      n: 0,
      nulls: 2,
      reason: "no chat model configured to judge",
    });
    expect(aggregate.metrics.contextual_recall).toMatchObject({ mean: 1, n: 2 });
    expect(aggregate.metrics.ndcg_at_10!.n).toBe(2);
  });

  it("with the stand-in model as judge: values in [0, 1] with the judge's reasons per case", async () => {
    setRuntimeEnv("LLM_PROVIDER", "openai");
    setRuntimeEnv("LLM_BASE_URL", chat.baseUrl);
    setRuntimeEnv("LLM_API_KEY", "sk-test");
    setRuntimeEnv("LLM_MODEL", "judge-model");
    const s = await svc();
    // Expected answers only: the judge computes all four metrics.
    await s.importTestSet({
      projectId,
      name: "answers-only",
      format: "jsonl",
      content: jsonl([
        { question: "How are granite blocks cut?", expected_answer: "Granite blocks are cut with diamond wire saws." },
        { question: "How is marble polished?", expected_answer: "Marble slabs are polished with tin oxide." },
      ]),
    });
    const run = await s.createEvaluationRun({
      projectId,
      flowName: "plain-rag",
      testSet: "answers-only",
      target: "draft",
    });
    judgedRun = run.id;
    expect(await s.runEvaluationInline(run.id)).toEqual({ status: "completed" });
    const { run: done, cases } = await s.getEvaluationRun(projectId, run.id);
    expect(done.judgeModel).toBe("judge-model");
    expect(
      chat.requests.some((r) => r.messages.some((m) => m.content.includes("evaluation judge. Task: faithfulness"))),
    ).toBe(true);
    for (const c of cases) {
      for (const key of ["contextual_precision", "contextual_recall", "answer_relevancy", "faithfulness"]) {
        const m = c.metrics[key]!;
        expect(m.form, `${key}: ${m.reason}`).toBe("judge");
        expect(m.value).toBeGreaterThanOrEqual(0);
        expect(m.value).toBeLessThanOrEqual(1);
        expect(m.reason.length).toBeGreaterThan(10);
      }
      expect(c.metrics.faithfulness!.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ claim: expect.any(String), reason: expect.any(String) })]),
      );
    }
    // The stand-in answers with the passage's own sentence: every claim is supported, and the passage that holds the
    // reference answer is useful.
    expect(cases.every((c) => c.metrics.faithfulness!.value === 1)).toBe(true);
    expect(cases.every((c) => c.metrics.contextual_recall!.value === 1)).toBe(true);
  });

  it("shows the latest metrics on the response node, fresh until the node or its upstream changes", async () => {
    const { listNodeViews } = await import("../flows/node-results");
    const { toNodeDto } = await import("../public-api/v1/flows/mappers");
    const { findFlow, updateNodeConfig } = await import("../flows/service");
    const result = async () => {
      const flow = (await findFlow(projectId, "plain-rag"))!;
      const [node] = (await listNodeViews(flow, ["response"])).map(toNodeDto);
      return (node!.data as { result: Record<string, unknown> }).result;
    };
    const fresh = await result();
    expect(fresh.updatedMetrics).toBe(true);
    expect(fresh.faithfulness).toBe(1);
    expect(typeof fresh.answer_relevancy).toBe("number");
    await updateNodeConfig({
      projectId,
      flowName: "plain-rag",
      segment: "retrieval",
      nodeId: RETRIEVAL,
      body: { config: { searchType: "keyword", topK: 3 } },
    });
    const stale = await result();
    expect(stale.updatedMetrics).toBe(false);
    // Still the latest aggregate, now marked outdated.
    expect(stale.faithfulness).toBe(1);
  });

  it("compares two runs and stops a cancelled one", async () => {
    const s = await svc();
    const compared = await s.compareEvaluationRuns(projectId, noModelRun, judgedRun);
    expect(compared.sameTestSet).toBe(false);
    expect(compared.a.aggregates[RESPONSE]!.metrics.faithfulness!.mean).toBeNull();
    expect(compared.b.aggregates[RESPONSE]!.metrics.faithfulness!.mean).toBe(1);
    const run = await s.createEvaluationRun({ projectId, flowName: "plain-rag", testSet: "stones", target: "draft" });
    await s.cancelEvaluationRun(projectId, run.id);
    expect(await s.runEvaluationInline(run.id)).toEqual({ status: "cancelled" });
    await expect(
      s.createEvaluationRun({ projectId, flowName: "plain-rag", testSet: "stones", target: "deployed" }),
    ).rejects.toThrow("Flow plain-rag is not deployed");
  });

  it("is not found from another project", async () => {
    const s = await svc();
    await expect(s.getEvaluationRun(otherProjectId, judgedRun)).rejects.toThrow(
      `Evaluation run ${judgedRun} not found`,
    );
    await expect(s.compareEvaluationRuns(otherProjectId, noModelRun, judgedRun)).rejects.toThrow("not found");
    await expect(s.cancelEvaluationRun(otherProjectId, judgedRun)).rejects.toThrow("not found");
    expect(await s.listEvaluationRuns(otherProjectId)).toEqual([]);
    await expect(
      s.createEvaluationRun({ projectId: otherProjectId, flowName: "plain-rag", testSet: "stones", target: "draft" }),
    ).rejects.toThrow("Test set stones not found");
  });
});
