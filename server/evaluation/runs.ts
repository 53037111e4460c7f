import { db } from "../db";
import { AppError, errorMessage } from "../errors";
import { assertRunnable, RevisionSnapshot } from "../flows/deploy";
import { graphOf, requireFlow } from "../flows/service";
import { isUuid } from "../ids";
import { evaluationRunRequested } from "../jobs/events";
import { sendJobEvent } from "../jobs/send";
import { graphHash, isGeneratorKind } from "../flows/fingerprint";
import type { MetricResult } from "./metrics";
import type { NodeAggregate, StoredRetrieved } from "./run-steps";
import { requireTestSet } from "./testsets";

/**
 * Evaluation runs: start one (a test set through a flow's draft or one of its revisions), follow it, cancel it, read
 * its per-case table, compare two. Every query is scoped by project; another project's run is not found.
 */

export type RunTarget = "draft" | "deployed" | { revisionId: string };

const resolveTarget = async (projectId: string, flowName: string, target: RunTarget) => {
  const flow = await requireFlow(projectId, flowName);
  if (target === "draft") {
    const graph = graphOf(flow);
    const { prompts } = await assertRunnable(projectId, graph, "Failed to evaluate flow");
    const used = new Set(graph.nodes.map((n) => n.data.config.promptId ?? "default_retrieval_prompt"));
    return { flow, snapshot: { ...graph, prompts: prompts.filter((p) => used.has(p.id)) }, revision: null };
  }
  const revisionId = target === "deployed" ? flow.activeRevisionId : target.revisionId;
  if (!revisionId)
    throw new AppError("BAD_REQUEST", `Flow ${flowName} is not deployed: evaluate its draft or deploy it first`);
  const revision = isUuid(revisionId)
    ? await db.flowRevision.findFirst({ where: { id: revisionId, flowId: flow.id, projectId } })
    : null;
  if (!revision) throw new AppError("NOT_FOUND", `Revision ${revisionId} of flow ${flowName} not found`);
  if (revision.status !== "ready")
    throw new AppError("BAD_REQUEST", `Revision ${revision.number} was not deployed successfully`);
  return { flow, snapshot: RevisionSnapshot.parse(revision.snapshot), revision };
};

type StartArgs = {
  projectId: string;
  flowName: string;
  /** Test set id or name. */
  testSet: string;
  target: RunTarget;
  createdBy?: string | null;
};

/** The run's row, with the graph it evaluates frozen into it; nothing runs yet. */
export const createEvaluationRun = async ({ projectId, flowName, testSet, target, createdBy }: StartArgs) => {
  const set = await requireTestSet(projectId, testSet);
  const { flow, snapshot, revision } = await resolveTarget(projectId, flowName, target);
  if (!snapshot.nodes.some((n) => isGeneratorKind(n.type)))
    throw new AppError("BAD_REQUEST", "The flow has no llm or response node to evaluate");
  const run = await db.evaluationRun.create({
    data: {
      projectId,
      flowId: flow.id,
      testSetId: set.id,
      target: revision ? "revision" : "draft",
      revisionId: revision?.id ?? null,
      revisionNumber: revision?.number ?? null,
      servingRevisionId: flow.activeRevisionId,
      graph: snapshot as never,
      graphHash: graphHash(snapshot, snapshot.prompts),
      chunkSets: (revision?.chunkSets ?? {}) as never,
      totalCases: set.caseCount,
      createdBy: createdBy ?? null,
    },
  });
  return { ...run, flow: { name: flow.name }, testSet: { name: set.name } };
};

/** Creates the run and hands it to the durable job `run-evaluation`. */
export const startEvaluation = async (args: StartArgs) => {
  const run = await createEvaluationRun(args);
  try {
    const data = { runId: run.id, projectId: args.projectId };
    await sendJobEvent(evaluationRunRequested, data, { id: `evaluation-${run.id}` });
  } catch (error) {
    await db.evaluationRun.update({
      where: { id: run.id },
      data: { status: "failed", error: `could not schedule the run (${errorMessage(error)})`, finishedAt: new Date() },
    });
    throw new AppError("INTERNAL", `Failed to start the evaluation: ${errorMessage(error)}`);
  }
  return summaryOf(run);
};

type RunRow = NonNullable<Awaited<ReturnType<typeof db.evaluationRun.findFirst>>> & {
  flow: { name: string };
  testSet: { name: string };
};

const summaryOf = (run: RunRow) => {
  const generators = RevisionSnapshot.parse(run.graph).nodes.filter((n) => isGeneratorKind(n.type));
  return {
    id: run.id,
    flowName: run.flow.name,
    testSetId: run.testSetId,
    testSetName: run.testSet.name,
    target: run.target as "draft" | "revision",
    revisionId: run.revisionId,
    revisionNumber: run.revisionNumber,
    graphHash: run.graphHash,
    label: run.target === "revision" ? `revision ${run.revisionNumber}` : `draft ${run.graphHash.slice(0, 7)}`,
    judgeModel: run.judgeModel,
    status: run.status,
    totalCases: run.totalCases,
    doneCases: run.doneCases,
    cancelRequested: run.cancelRequested,
    aggregates: run.aggregates as Record<string, NodeAggregate>,
    nodeNames: Object.fromEntries(generators.map((n) => [n.id, n.data.name || n.id])),
    /** The node whose metrics stand for the run (lists, comparisons): the response node, the flow's answer. */
    mainNodeId: (generators.find((n) => n.type === "response") ?? generators[0])?.id ?? null,
    error: run.error,
    createdBy: run.createdBy,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
};
export type EvaluationRunSummary = ReturnType<typeof summaryOf>;

const withNames = { flow: { select: { name: true } }, testSet: { select: { name: true } } } as const;

/** Runs of one flow, or of every flow of the project (to compare across flows), newest first. */
export const listEvaluationRuns = async (projectId: string, flowName?: string) => {
  const flow = flowName ? await requireFlow(projectId, flowName) : null;
  const runs = await db.evaluationRun.findMany({
    where: { projectId, ...(flow ? { flowId: flow.id } : {}) },
    orderBy: { createdAt: "desc" },
    take: 100,
    include: withNames,
  });
  return runs.map(summaryOf);
};

const requireRun = async (projectId: string, runId: string) => {
  const run = isUuid(runId)
    ? await db.evaluationRun.findFirst({ where: { id: runId, projectId }, include: withNames })
    : null;
  if (!run) throw new AppError("NOT_FOUND", `Evaluation run ${runId} not found`);
  return run;
};

export type CaseRow = {
  position: number;
  nodeId: string;
  question: string;
  expectedAnswer: string;
  retrieved: StoredRetrieved[];
  answer: string | null;
  metrics: Record<string, MetricResult>;
  error: string | null;
};

/** One run with a page of its per-case table (positions page by page, every evaluated node of each). */
export const getEvaluationRun = async (projectId: string, runId: string, page = 1, pageSize = 20) => {
  const run = await requireRun(projectId, runId);
  const from = (page - 1) * pageSize;
  const rows = await db.evaluationCase.findMany({
    where: { runId: run.id, projectId, position: { gte: from, lt: from + pageSize } },
    orderBy: [{ position: "asc" }, { nodeId: "asc" }],
  });
  const expected = await db.testCase.findMany({
    where: { projectId, id: { in: rows.map((r) => r.testCaseId) } },
    select: { id: true, expectedAnswer: true },
  });
  const answerOf = new Map(expected.map((c) => [c.id, c.expectedAnswer]));
  const cases: CaseRow[] = rows.map((r) => ({
    position: r.position,
    nodeId: r.nodeId,
    question: r.question,
    expectedAnswer: answerOf.get(r.testCaseId) ?? "",
    retrieved: r.retrieved as StoredRetrieved[],
    answer: r.answer,
    metrics: r.metrics as Record<string, MetricResult>,
    error: r.error,
  }));
  return { run: summaryOf(run), cases, page, pageSize, totalPages: Math.max(1, Math.ceil(run.totalCases / pageSize)) };
};

export const cancelEvaluationRun = async (projectId: string, runId: string) => {
  const run = await requireRun(projectId, runId);
  if (run.status !== "queued" && run.status !== "running")
    throw new AppError("BAD_REQUEST", `The run is ${run.status} already`);
  await db.evaluationRun.update({ where: { id: run.id }, data: { cancelRequested: true } });
  return { id: run.id, cancelRequested: true };
};

export const deleteEvaluationRun = async (projectId: string, runId: string) => {
  const run = await requireRun(projectId, runId);
  await db.evaluationRun.delete({ where: { id: run.id } });
  return { id: run.id };
};

/**
 * Two runs side by side (two revisions of a flow, or two flows): their per-node aggregates, and, when they ran the
 * same test set, each case's metrics at their response nodes.
 */
export const compareEvaluationRuns = async (projectId: string, aId: string, bId: string) => {
  const [a, b] = [summaryOf(await requireRun(projectId, aId)), summaryOf(await requireRun(projectId, bId))];
  const [nodeA, nodeB] = [a.mainNodeId, b.mainNodeId];
  const sameSet = a.testSetId === b.testSetId;
  const rowsOf = (runId: string, nodeId: string | null) =>
    nodeId && sameSet
      ? db.evaluationCase.findMany({
          where: { runId, projectId, nodeId },
          orderBy: { position: "asc" },
          select: { position: true, question: true, metrics: true, error: true },
          take: 500,
        })
      : Promise.resolve([]);
  const [rowsA, rowsB] = await Promise.all([rowsOf(a.id, nodeA), rowsOf(b.id, nodeB)]);
  const byPosition = new Map(rowsB.map((r) => [r.position, r]));
  return {
    a: { ...a, node: nodeA },
    b: { ...b, node: nodeB },
    sameTestSet: sameSet,
    cases: rowsA.map((r) => ({
      position: r.position,
      question: r.question,
      a: r.metrics as Record<string, MetricResult>,
      b: (byPosition.get(r.position)?.metrics ?? null) as Record<string, MetricResult> | null,
    })),
  };
};
