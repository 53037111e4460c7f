import { z } from "zod";
import { db } from "../db";
import { AppError, errorMessage } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { flowDeployRequested } from "../jobs/events";
import { sendJobEvent } from "../jobs/send";
import { logger } from "../logger";
import { ensureFlowChunkSet, releaseUnfinishedFlowChunkSets, releaseUnusedFlowChunkSets } from "./chunk-sets";
import { Graph, Prompt } from "./graph.schema";
import { parseNodeConfig, type ChunkingConfig, type DatasetConfig } from "./node-kinds";
import { listPrompts } from "./prompts";
import { chunkSetsSize, datasetCounts } from "./counts";
import { graphOf, mutateDraft, requireFlow, statesOf } from "./service";
import { markProcessed } from "./node-state";
import { DeployCancelledError, indexCounts, indexNodesOf, releaseUnusedIndexes } from "./deploy-indexes";
import { assertWithinBudget, estimateIndexes, tokenBudgetOf } from "./node-indexes/service";
import { NO_RESPONSE_NODE, validateGraph, type GraphContext } from "./validate-graph";
import { emitDeployEnded } from "../webhooks/events";

/**
 * Deploy (contract §7.3): validate the draft → snapshot it as an immutable revision → the deploy job builds what the
 * revision needs and switches traffic to it → `Deployed`. The request waits for the job (up to 10 minutes); progress
 * is on the revision (step, progress), shown by GET {flow_url}. The last KEPT_REVISIONS revisions are kept for
 * rollback; a failed deploy leaves the serving revision in place.
 */

export const KEPT_REVISIONS = 5;
const DEPLOY_TIMEOUT_MS = 10 * 60_000;

export const RevisionSnapshot = Graph.extend({ prompts: Prompt.array() });
export type RevisionSnapshot = z.infer<typeof RevisionSnapshot>;

/** What validation needs to know of the project: its sources' statuses and its prompt ids. */
export const graphContext = async (projectId: string, graph: Graph): Promise<GraphContext & { prompts: Prompt[] }> => {
  const ids = graph.nodes.flatMap((n) => (n.type === "dataset" ? ((n.data.config.fileIds as string[]) ?? []) : []));
  const sources = await db.source.findMany({
    where: { projectId, id: { in: ids } },
    select: { id: true, status: true },
  });
  const status = new Map(sources.map((s) => [s.id, s.status as string]));
  const prompts = await listPrompts(projectId);
  return { sourceStatus: (id) => status.get(id), promptIds: new Set(prompts.map((p) => p.id)), prompts };
};

/** The graph checked for running; the contract's 400 sentences (§7.3) when it cannot run. */
export const assertRunnable = async (projectId: string, graph: Graph, prefix: string) => {
  const context = await graphContext(projectId, graph);
  const check = validateGraph(graph, "run", context);
  if (!check.ok) {
    if (check.noResponseNode) throw new AppError("BAD_REQUEST", `${prefix}: ${NO_RESPONSE_NODE}`);
    throw new AppError("BAD_REQUEST", `Flow configuration is invalid: ${check.errors[0]!.message}`);
  }
  return context;
};

export const requestDeploy = async ({
  projectId,
  flowName,
  toolDescription,
  deployedBy,
}: {
  projectId: string;
  flowName: string;
  toolDescription?: string | null;
  /** Shown in the editor's revision list: a user's email, or the API token's name. */
  deployedBy?: string | null;
}) => {
  const flow = await requireFlow(projectId, flowName);
  const graph = graphOf(flow);
  const { prompts } = await assertRunnable(projectId, graph, "Failed to deploy flow");
  // Graphs and trees built with a chat model cost money: estimated first, refused past the flow's budget.
  const estimates = await estimateIndexes(projectId, graph);
  assertWithinBudget(estimates, tokenBudgetOf(flow));
  const used = new Set(graph.nodes.map((n) => n.data.config.promptId ?? "default_retrieval_prompt"));
  const snapshot = { ...graph, prompts: prompts.filter((p) => used.has(p.id)) };
  const last = await db.flowRevision.findFirst({ where: { flowId: flow.id }, orderBy: { number: "desc" } });
  const revision = await db.flowRevision.create({
    data: {
      flowId: flow.id,
      projectId,
      number: (last?.number ?? 0) + 1,
      snapshot: snapshot as unknown as Prisma.InputJsonValue,
      toolDescription: toolDescription ?? null,
      deployedBy: deployedBy ?? null,
      estimate: Object.fromEntries(estimates.map(({ nodeId, ...e }) => [nodeId, e])),
      step: "queued",
    },
  });
  try {
    const data = { revisionId: revision.id, projectId, flowId: flow.id };
    await sendJobEvent(flowDeployRequested, data, { id: `flow-deploy-${revision.id}` });
  } catch (error) {
    await failRevision(revision.id, error);
    throw new AppError("INTERNAL", `Failed to deploy flow: could not schedule the deploy (${errorMessage(error)})`);
  }
  const done = await waitForRevision(revision.id);
  if (done.status === "cancelled") throw new AppError("CONFLICT", `The deploy of flow '${flow.name}' was cancelled`);
  if (done.status === "failed")
    throw new AppError("INTERNAL", `Failed to deploy flow: ${done.error ?? "unknown error"}`);
  return {
    success: true,
    message: `Flow '${flow.name}' deployed successfully`,
    revision_id: revision.id,
    status: "Deployed",
  };
};

const waitForRevision = async (revisionId: string) => {
  const deadline = Date.now() + DEPLOY_TIMEOUT_MS;
  for (let delay = 100; ; delay = Math.min(1000, delay * 1.5)) {
    const revision = await db.flowRevision.findUnique({ where: { id: revisionId } });
    if (!revision || revision.status !== "building")
      return revision ?? { status: "failed", error: "revision vanished" };
    if (Date.now() > deadline) {
      throw new AppError("TIMEOUT", "The deploy is still running; GET the flow to follow it");
    }
    await new Promise((r) => setTimeout(r, delay));
  }
};

const loadRevision = async (revisionId: string) => {
  const revision = await db.flowRevision.findUnique({ where: { id: revisionId } });
  if (!revision) throw new Error(`Flow revision ${revisionId} no longer exists`);
  return { revision, snapshot: RevisionSnapshot.parse(revision.snapshot) };
};

/** What the deploy job builds: chunking nodes' chunk sets, then graph-rag and raptor-rag nodes' indexes. */
export const deployPlan = async (revisionId: string) => {
  const { snapshot } = await loadRevision(revisionId);
  await db.flowRevision.update({ where: { id: revisionId }, data: { step: "validate", progress: 5 } });
  return {
    chunking: snapshot.nodes.filter((n) => n.type === "chunking").map((n) => n.id),
    indexes: indexNodesOf(snapshot),
  };
};

/** The deploy's progress: 5-90 % for chunking, or 5-40 % when graphs or trees are built after it (40-95 %). */
const chunkingSpan = (snapshot: Graph) => ({ to: indexNodesOf(snapshot).length ? 40 : 90 });

const datasetSourcesOf = (snapshot: Graph, nodeId: string) =>
  snapshot.edges
    .filter((e) => e.target === nodeId)
    .flatMap((e) => {
      const up = snapshot.nodes.find((n) => n.id === e.source);
      return up?.type === "dataset" ? (parseNodeConfig("dataset", up.data.config) as DatasetConfig).fileIds : [];
    });

/** One chunking node's chunk sets over its dataset's documents (reused when built before with the same settings). */
export const buildChunkingNode = async (revisionId: string, nodeId: string) => {
  const { revision, snapshot } = await loadRevision(revisionId);
  if (revision.cancelRequested) throw new DeployCancelledError();
  const node = snapshot.nodes.find((n) => n.id === nodeId)!;
  const config = parseNodeConfig("chunking", node.data.config) as ChunkingConfig;
  await db.flowRevision.update({ where: { id: revisionId }, data: { step: `chunking ${nodeId}` } });
  const sets: string[] = [];
  for (const sourceId of [...new Set(datasetSourcesOf(snapshot, nodeId))]) {
    sets.push((await ensureFlowChunkSet({ projectId: revision.projectId, sourceId, config })).id);
  }
  const current = await db.flowRevision.findUniqueOrThrow({ where: { id: revisionId } });
  const chunkSets = { ...(current.chunkSets as Record<string, string[]>), [nodeId]: sets };
  const done = Object.keys(chunkSets).length;
  const total = snapshot.nodes.filter((n) => n.type === "chunking").length;
  const { to } = chunkingSpan(snapshot);
  await db.flowRevision.update({
    where: { id: revisionId },
    data: { chunkSets, progress: Math.min(to, 5 + Math.round(((to - 5) * done) / total)) },
  });
  return { nodeId, chunkSets: sets.length };
};

/** Counts a deploy reports on the draft's nodes: documents per dataset, chunks per chunking node. */
const deployCounts = async (projectId: string, snapshot: Graph, chunkSets: Record<string, string[]>) => {
  const outcome: { id: string; ok: boolean; counts?: Record<string, number> }[] = [];
  for (const node of snapshot.nodes) {
    if (node.type === "dataset") {
      const ids = (parseNodeConfig("dataset", node.data.config) as DatasetConfig).fileIds;
      outcome.push({ id: node.id, ok: true, counts: await datasetCounts(projectId, ids) });
    } else if (node.type === "chunking") {
      outcome.push({
        id: node.id,
        ok: true,
        counts: { total_chunks: await chunkSetsSize(projectId, chunkSets[node.id] ?? []) },
      });
    }
  }
  return outcome;
};

/** Traffic moves to the revision at once; older revisions beyond the kept ones go, with chunk sets nobody uses. */
export const activateRevision = async (revisionId: string) => {
  const { revision, snapshot } = await loadRevision(revisionId);
  if (revision.status === "ready") return { status: "ready" };
  const chunkSets = revision.chunkSets as Record<string, string[]>;
  const measured = [
    ...(await deployCounts(revision.projectId, snapshot, chunkSets)),
    ...(await indexCounts(revision.nodeIndexes as Record<string, string>)),
  ];
  // Every node of the revision is now processed with its configuration (retrieval, llm … have nothing to count).
  const outcome = [
    ...measured,
    ...snapshot.nodes.filter((n) => !measured.some((m) => m.id === n.id)).map((n) => ({ id: n.id, ok: true })),
  ];
  // The draft's flags and counts are written before the revision reads ready: the deploy request answers on that
  // status, and its caller reads them at once. Flags follow the draft: a node edited since the deploy was asked for
  // stays not updated.
  const deployedConfig = new Map(snapshot.nodes.map((n) => [n.id, JSON.stringify([n.type, n.data.config])]));
  await mutateDraft(revision.flowId, (flow) => {
    const draft = new Map(graphOf(flow).nodes.map((n) => [n.id, JSON.stringify([n.type, n.data.config])]));
    const same = outcome.filter((o) => draft.get(o.id) === deployedConfig.get(o.id));
    return { nodeState: markProcessed(statesOf(flow), same) };
  });
  await db.$transaction([
    db.flowRevision.update({
      where: { id: revisionId },
      data: { status: "ready", step: "deployed", progress: 100, finishedAt: new Date(), error: null },
    }),
    db.flow.update({ where: { id: revision.flowId }, data: { activeRevisionId: revisionId, status: "Deployed" } }),
  ]);
  await emitDeployEnded(revisionId);
  const old = await db.flowRevision.findMany({
    where: { flowId: revision.flowId },
    orderBy: { number: "desc" },
    skip: KEPT_REVISIONS,
    select: { id: true },
  });
  if (old.length) {
    await db.flowRevision.deleteMany({ where: { id: { in: old.map((r) => r.id) }, NOT: { id: revisionId } } });
    await releaseUnusedFlowChunkSets(revision.projectId);
    await releaseUnusedIndexes(revision.projectId);
  }
  return { status: "ready" };
};

/** A failed deploy marks the flow Failed; a cancelled one leaves it as it was (serving its last revision, if any). */
export const failRevision = async (revisionId: string, error: unknown) => {
  const message = errorMessage(error);
  const revision = await db.flowRevision.findUniqueOrThrow({ where: { id: revisionId }, include: { flow: true } });
  const cancelled = revision.cancelRequested;
  if (!cancelled) logger.warn({ revisionId, err: error }, "flow deploy failed");
  const status = !cancelled ? "Failed" : revision.flow.activeRevisionId ? "Deployed" : "NotDeployed";
  // One commit: the deploy request answers as soon as the revision has ended, and the flow's status says so by then.
  await db.$transaction([
    db.flowRevision.update({
      where: { id: revisionId },
      data: { status: cancelled ? "cancelled" : "failed", error: message, finishedAt: new Date() },
    }),
    db.flow.update({ where: { id: revision.flowId }, data: { status } }),
  ]);
  await emitDeployEnded(revisionId);
  await releaseUnfinishedFlowChunkSets(revision.projectId);
  return { error: message };
};

/** Points the flow's traffic at one of its kept, successfully built revisions again. */
export const rollback = async (projectId: string, flowName: string, revisionId?: string) => {
  const flow = await requireFlow(projectId, flowName);
  const target = await db.flowRevision.findFirst({
    where: {
      flowId: flow.id,
      status: "ready",
      ...(revisionId ? { id: revisionId } : { NOT: { id: flow.activeRevisionId ?? undefined } }),
    },
    orderBy: { number: "desc" },
  });
  if (!target) throw new AppError("NOT_FOUND", "No earlier deployed revision to roll back to");
  await db.flow.update({ where: { id: flow.id }, data: { activeRevisionId: target.id, status: "Deployed" } });
  return target;
};
