import { db } from "../db";
import { AppError } from "../errors";
import type { Graph } from "./graph.schema";
import { parseNodeConfig } from "./node-kinds";
import { advanceIndex, chunkSetsForIndex, ensureIndex, isIndexKind, tokenBudgetOf } from "./node-indexes/service";

/**
 * The deploy job's steps for graph-rag and raptor-rag nodes: find or create each node's index over the chunk sets
 * the revision's chunking nodes got, then build it one checkpointed batch per step. A cancel is seen at the next
 * step; the flow's token budget is read at every step, so a budget raised mid-deploy applies at once.
 */

export class DeployCancelledError extends AppError {
  constructor() {
    super("CONFLICT", "the deploy was cancelled");
  }
}

/** At most this many build steps per index: builders size their batches to stay well under it. */
export const MAX_INDEX_STEPS = 800;

const revisionOf = async (revisionId: string) => {
  const revision = await db.flowRevision.findUnique({ where: { id: revisionId }, include: { flow: true } });
  if (!revision) throw new Error(`Flow revision ${revisionId} no longer exists`);
  if (revision.cancelRequested) throw new DeployCancelledError();
  return { revision, snapshot: revision.snapshot as unknown as Graph };
};

export const indexNodesOf = (snapshot: Graph) => snapshot.nodes.filter((n) => isIndexKind(n.type)).map((n) => n.id);

/** The node's index over the revision's chunk sets (an existing one is reused, a half-built one resumes). */
export const prepareRevisionIndex = async (revisionId: string, nodeId: string) => {
  const { revision, snapshot } = await revisionOf(revisionId);
  const node = snapshot.nodes.find((n) => n.id === nodeId)!;
  const kind = node.type as "graph-rag" | "raptor-rag";
  const chunkSets = revision.chunkSets as Record<string, string[]>;
  const chunkSetIds = await chunkSetsForIndex(revision.projectId, snapshot, nodeId, (id) => chunkSets[id] ?? []);
  const index = await ensureIndex(revision.projectId, kind, parseNodeConfig(kind, node.data.config), chunkSetIds);
  const current = await db.flowRevision.findUniqueOrThrow({ where: { id: revisionId } });
  await db.flowRevision.update({
    where: { id: revisionId },
    data: {
      step: `${kind} ${nodeId}`,
      nodeIndexes: { ...(current.nodeIndexes as Record<string, string>), [nodeId]: index.id },
    },
  });
  return { indexId: index.id, status: index.status };
};

/** One build step of the node's index; the revision shows it (`graph-rag <node>: extract 3/40`). */
export const advanceRevisionIndex = async (revisionId: string, nodeId: string) => {
  const { revision } = await revisionOf(revisionId);
  const indexId = (revision.nodeIndexes as Record<string, string>)[nodeId];
  if (!indexId) throw new Error(`Node ${nodeId} has no index in revision ${revisionId}`);
  const result = await advanceIndex(indexId, tokenBudgetOf(revision.flow));
  // Index builds fill 40-95 % of the deploy's progress, one equal share per index node.
  const nodes = indexNodesOf(revision.snapshot as unknown as Graph);
  const share = (nodes.indexOf(nodeId) + (result.done ? 100 : result.progress) / 100) / Math.max(1, nodes.length);
  await db.flowRevision.update({
    where: { id: revisionId },
    data: { step: `${nodeId}: ${result.step}`, progress: Math.min(95, 40 + Math.round(55 * share)) },
  });
  return result;
};

/** Asks the flow's running deploy to stop at its next step; false when no deploy is running. */
export const cancelDeploy = async (flowId: string) => {
  const { count } = await db.flowRevision.updateMany({
    where: { flowId, status: "building" },
    data: { cancelRequested: true },
  });
  return count > 0;
};

/** Result counters of the revision's index nodes (entities, tree levels …), from their built indexes. */
export const indexCounts = async (nodeIndexes: Record<string, string>) => {
  const ids = Object.values(nodeIndexes);
  const rows = await db.flowNodeIndex.findMany({ where: { id: { in: ids } }, select: { id: true, counts: true } });
  const byId = new Map(rows.map((r) => [r.id, r.counts as Record<string, number>]));
  return Object.entries(nodeIndexes).map(([nodeId, id]) => ({ id: nodeId, ok: true, counts: byId.get(id) ?? {} }));
};

/** Ready indexes no kept revision names any more are deleted (with what hangs off them). */
export const releaseUnusedIndexes = async (projectId: string) => {
  const revisions = await db.flowRevision.findMany({ where: { projectId }, select: { nodeIndexes: true } });
  const used = new Set(revisions.flatMap((r) => Object.values((r.nodeIndexes ?? {}) as Record<string, string>)));
  await db.flowNodeIndex.deleteMany({ where: { projectId, status: "ready", id: { notIn: [...used] } } });
};
