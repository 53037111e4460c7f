import { db } from "../db";
import { withModelUsage } from "../providers/usage";
import { errorMessage } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { logger } from "../logger";
import { ensureFlowChunkSet } from "../flows/chunk-sets";
import { RevisionSnapshot } from "../flows/deploy";
import type { ChunkingConfig } from "../flows/node-kinds";
import { METRIC_KEYS } from "../flows/node-kinds/generation";
import { runGraph } from "../flows/run-graph";
import { resolveChatModel } from "../model-providers/resolve";
import { getEmbedder } from "../providers/embedding";
import { isGeneratorKind, nodeFingerprint } from "../flows/fingerprint";
import { meanOf, ndcgAt10, unavailable, type MetricResult } from "./metrics";
import { scoreCase, type Scores } from "./score-case";
import { emitEvaluationEnded } from "../webhooks/events";

/**
 * The steps of the durable job `run-evaluation` (inngest/functions/run-evaluation.ts): plan → one step per batch of
 * cases → finish. A batch rewrites its own rows, so a retried or resumed batch never doubles them; the cancel flag is
 * read before every case.
 */

export const CASE_BATCH = 10;
const KEPT_PASSAGES = 20;
const PASSAGE_CHARS = 600;

export type StoredRetrieved = {
  chunkId: string;
  fileId: string;
  fileName: string;
  page: number | null;
  score: number;
  text: string;
};

type CaseMetrics = Scores & { ndcg_at_10?: MetricResult };

const loadRun = (runId: string) => db.evaluationRun.findUnique({ where: { id: runId } });

/** Marks the run started; returns how many batches it has, or null when it was cancelled or deleted meanwhile. */
export const planRun = async (runId: string) => {
  const run = await loadRun(runId);
  if (!run || run.status === "cancelled" || run.cancelRequested) {
    if (run) await markCancelled(runId);
    return null;
  }
  await db.evaluationRun.update({
    where: { id: runId },
    data: { status: "running", startedAt: run.startedAt ?? new Date(), judgeModel: (await resolveChatModel(run.projectId))?.id ?? null },
  });
  return { batches: Math.ceil(run.totalCases / CASE_BATCH) };
};

const markCancelled = (runId: string) =>
  db.evaluationRun.update({ where: { id: runId }, data: { status: "cancelled", finishedAt: new Date() } });

const toStored = (items: NonNullable<Awaited<ReturnType<typeof runGraph>>["items"]>): StoredRetrieved[] =>
  items.slice(0, KEPT_PASSAGES).map((c) => ({
    chunkId: c.chunkId,
    fileId: c.sourceId,
    fileName: c.fileName,
    page: c.pageNumber,
    score: c.score,
    text: c.text.length > PASSAGE_CHARS ? `${c.text.slice(0, PASSAGE_CHARS)}…` : c.text,
  }));

const failedScores = (reason: string): Scores =>
  Object.fromEntries(METRIC_KEYS.map((k) => [k, unavailable(reason)])) as Scores;

/** Evaluates cases [batch × CASE_BATCH, …) through the run's graph; returns whether the run was cancelled. */
/** A batch of cases: the evaluated flow's calls and the judge's are all recorded as the project's `evaluation`. */
export const evaluateBatch = async (runId: string, batch: number) => {
  const run = await loadRun(runId);
  if (!run) return { cancelled: true };
  return withModelUsage({ projectId: run.projectId, cause: "evaluation" }, () => evaluateCases(run, runId, batch));
};

const evaluateCases = async (run: NonNullable<Awaited<ReturnType<typeof loadRun>>>, runId: string, batch: number) => {
  const { projectId } = run;
  const snapshot = RevisionSnapshot.parse(run.graph);
  const generators = snapshot.nodes.filter((n) => isGeneratorKind(n.type)).map((n) => n.id);
  const revisionSets = run.chunkSets as Record<string, string[]>;
  const chunkSetsOf =
    run.target === "revision"
      ? async (nodeId: string) => revisionSets[nodeId] ?? []
      : async (_nodeId: string, config: ChunkingConfig, sourceIds: string[]) => {
          const ids: string[] = [];
          for (const sourceId of sourceIds) ids.push((await ensureFlowChunkSet({ projectId, sourceId, config })).id);
          return ids;
        };
  const cases = await db.testCase.findMany({
    where: { projectId, testSetId: run.testSetId, position: { gte: batch * CASE_BATCH, lt: (batch + 1) * CASE_BATCH } },
    orderBy: { position: "asc" },
  });
  const judge = await resolveChatModel(projectId);
  const embedder = getEmbedder();
  const rows: Prisma.EvaluationCaseCreateManyInput[] = [];
  for (const testCase of cases) {
    const current = await db.evaluationRun.findUnique({ where: { id: runId }, select: { cancelRequested: true } });
    if (!current || current.cancelRequested) {
      await markCancelled(runId);
      return { cancelled: true };
    }
    const base = {
      runId,
      projectId,
      position: testCase.position,
      testCaseId: testCase.id,
      question: testCase.question,
    };
    let result: Awaited<ReturnType<typeof runGraph>>;
    try {
      result = await runGraph({
        projectId,
        graph: snapshot,
        prompts: snapshot.prompts,
        query: testCase.question,
        targets: generators,
        chunkSetsOf,
      });
    } catch (error) {
      const reason = `the flow failed on this case: ${errorMessage(error)}`;
      for (const nodeId of generators)
        rows.push({ ...base, nodeId, error: errorMessage(error), metrics: failedScores(reason) as never });
      continue;
    }
    // An llm node and the response node that passes its text on share passages and answer: judged once.
    const memo = new Map<string, Scores>();
    for (const nodeId of generators) {
      const out = result.outputs.get(nodeId);
      const items = out?.items ?? [];
      const answer = out?.generated?.text ?? null;
      const key = JSON.stringify([answer, items.map((i) => i.chunkId)]);
      let scores = memo.get(key);
      if (!scores) {
        scores = await scoreCase({
          testCase: { ...testCase, items: items.map((i) => ({ fileId: i.sourceId, text: i.text })), answer },
          judge,
          embedder,
        });
        memo.set(key, scores);
      }
      const metrics: CaseMetrics = { ...scores };
      if (testCase.relevantFileIds.length) {
        const ranked = [...new Set(items.map((i) => i.sourceId))];
        metrics.ndcg_at_10 = {
          value: ndcgAt10(ranked, new Set(testCase.relevantFileIds)),
          form: "gold-file-ids",
          reason: "nDCG@10 of the retrieved documents against the gold relevant documents",
        };
      }
      rows.push({
        ...base,
        nodeId,
        retrieved: toStored(items) as never,
        answer,
        metrics: metrics as never,
      });
    }
  }
  const positions = cases.map((c) => c.position);
  await db.$transaction([
    db.evaluationCase.deleteMany({ where: { runId, position: { in: positions } } }),
    db.evaluationCase.createMany({ data: rows }),
    db.evaluationRun.update({
      where: { id: runId },
      data: { doneCases: Math.min(run.totalCases, (batch + 1) * CASE_BATCH) },
    }),
  ]);
  return { cancelled: false, cases: cases.length };
};

export type NodeAggregate = {
  fingerprint: string;
  cases: number;
  errors: number;
  metrics: Record<string, { mean: number | null; n: number; nulls: number; reason: string | null }>;
};

/** Per llm/response node: the mean of each metric over its non-null values, and the commonest reason for a null. */
export const aggregateRun = async (runId: string) => {
  const run = await db.evaluationRun.findUniqueOrThrow({ where: { id: runId } });
  const snapshot = RevisionSnapshot.parse(run.graph);
  const rows = await db.evaluationCase.findMany({
    where: { runId, projectId: run.projectId },
    select: { nodeId: true, metrics: true, error: true },
  });
  const aggregates: Record<string, NodeAggregate> = {};
  for (const node of snapshot.nodes.filter((n) => isGeneratorKind(n.type))) {
    const mine = rows.filter((r) => r.nodeId === node.id);
    const metrics: NodeAggregate["metrics"] = {};
    for (const key of [...METRIC_KEYS, "ndcg_at_10"]) {
      const results = mine.map((r) => (r.metrics as Record<string, MetricResult | undefined>)[key]);
      if (key === "ndcg_at_10" && !results.some(Boolean)) continue;
      const reasons = new Map<string, number>();
      for (const r of results) if (r && r.value === null) reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
      const reason = [...reasons.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
      metrics[key] = { ...meanOf(results.map((r) => r?.value)), reason };
    }
    aggregates[node.id] = {
      fingerprint: nodeFingerprint(snapshot, node.id, snapshot.prompts),
      cases: mine.length,
      errors: mine.filter((r) => r.error).length,
      metrics,
    };
  }
  return aggregates;
};

export const finishRun = async (runId: string) => {
  const run = await loadRun(runId);
  if (!run) return { status: "deleted" };
  const aggregates = await aggregateRun(runId);
  const status = run.status === "cancelled" || run.cancelRequested ? "cancelled" : "completed";
  await db.evaluationRun.update({
    where: { id: runId },
    data: { status, aggregates: aggregates as never, finishedAt: new Date() },
  });
  await emitEvaluationEnded(runId);
  return { status };
};

export const failRun = async (runId: string, error: unknown) => {
  logger.warn({ runId, err: error }, "evaluation run failed");
  const run = await loadRun(runId);
  if (!run) return { error: errorMessage(error) };
  await db.evaluationRun.update({
    where: { id: runId },
    data: {
      status: "failed",
      error: errorMessage(error),
      aggregates: (await aggregateRun(runId).catch(() => ({}))) as never,
      finishedAt: new Date(),
    },
  });
  await emitEvaluationEnded(runId);
  return { error: errorMessage(error) };
};

/**
 * The job's steps in a row, in this process (the bench and tests that need no job runner): same functions, no
 * memoization.
 */
export const runEvaluationInline = async (runId: string) => {
  const plan = await planRun(runId);
  if (!plan) return { status: "cancelled" };
  try {
    for (let batch = 0; batch < plan.batches; batch++) {
      if ((await evaluateBatch(runId, batch)).cancelled) break;
    }
    return await finishRun(runId);
  } catch (error) {
    await failRun(runId, error);
    return { status: "failed" };
  }
};
