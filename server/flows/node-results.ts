import { db } from "../db";
import type { GraphNode, NodeKind } from "./graph.schema";
import { NODE_KIND_DEFS } from "./node-kinds";
import type { FlowRow } from "./service";
import { graphOf, statesOf } from "./service";
import { flowNodeMetrics, type NodeMetrics } from "./node-metrics";
import { listPrompts } from "./prompts";
import type { NodeState } from "./node-state";

/**
 * What a flow's nodes report (contract §2.9 is their public form): their flags, and the counters and metrics of their
 * kind, from the draft's stored node state, the run counters and the latest evaluation. The dashboard's editor reads
 * these objects as they are; the public API's snake_case node shape is built from them in
 * server/public-api/v1/flows/mappers.ts.
 */

/** A node's result: the common flags, then the counters (and metrics) of its kind, in the kind's order. */
export type NodeResult = {
  updated: boolean;
  processing: boolean;
  waiting: boolean;
  hasError: boolean;
  /** llm/response nodes: true only while their evaluation metrics are fresh (./node-metrics.ts). */
  updatedMetrics: boolean;
  lastRun?: string;
  error?: string;
  /** Keyed by the kind's `resultFields` (node-kinds/); null where a metric has no value yet. */
  counters: Record<string, number | null>;
};

/** A draft node with its kind's defaults under its config, and its result (null: it never ran). */
export type NodeView = { node: GraphNode; result: NodeResult | null };

type Stat = { runs: number; itemsOut: number; responseChars: bigint; processingMs: bigint; lastRunAt: Date | null };

const perRun = (total: bigint | number, runs: number) => (runs ? Number(total) / runs : 0);

/** Counters of a kind from its stored counts and its run counters; llm/response metrics from the evaluations. */
const counters = (
  kind: NodeKind,
  state: NodeState,
  stat: Stat | undefined,
  metrics: NodeMetrics | undefined,
): Record<string, number | null> => {
  const runs = stat?.runs ?? 0;
  // Stored counts keep the names the deploy and simulation wrote (node-state.ts).
  const counts = state.counts ?? {};
  const generation = {
    totalResponses: runs,
    avgResponseLength: Math.round(perRun(stat?.responseChars ?? 0, runs) * 10) / 10,
    avgProcessingTime: Math.round(perRun(stat?.processingMs ?? 0, runs)) / 1000,
    contextualPrecision: metrics?.values.contextual_precision ?? null,
    contextualRecall: metrics?.values.contextual_recall ?? null,
    answerRelevancy: metrics?.values.answer_relevancy ?? null,
    faithfulness: metrics?.values.faithfulness ?? null,
  };
  switch (kind) {
    case "dataset":
      return { totalDocuments: counts.total_documents ?? 0, totalChunks: counts.total_chunks ?? 0 };
    case "chunking":
      return { totalChunks: counts.total_chunks ?? 0 };
    case "retrieval":
      return { totalRetrievals: runs };
    case "reranking":
      return { totalReranked: stat?.itemsOut ?? 0 };
    case "smart-rag":
      return { totalProcessed: runs, totalChunks: counts.total_chunks ?? 0, totalRetrieved: stat?.itemsOut ?? 0 };
    case "graph-rag":
      return {
        totalProcessed: runs,
        totalChunks: counts.total_chunks ?? 0,
        totalRetrieved: stat?.itemsOut ?? 0,
        totalEntities: counts.total_entities ?? 0,
        totalRelationships: counts.total_relationships ?? 0,
      };
    case "raptor-rag": {
      // Contract §2.10's formulas; null when the divisor is 0.
      const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 1000 : null);
      const chunks = counts.total_chunks ?? 0;
      const levels = counts.tree_levels ?? 0;
      const clusters = counts.total_clusters ?? 0;
      const summaries = counts.total_summaries ?? 0;
      return {
        totalProcessed: runs,
        totalChunks: chunks,
        totalRetrieved: stat?.itemsOut ?? 0,
        treeLevels: levels,
        totalClusters: clusters,
        totalSummaries: summaries,
        clusteringRatio: ratio(clusters, chunks),
        summarizationRatio: ratio(summaries, clusters),
        treeDensity: ratio(summaries, levels),
      };
    }
    case "llm":
    case "response":
      return generation;
  }
};

/** A node's result, or null for a node that never ran (no flags, no counters, no evaluation; §2.9). */
export const nodeResultOf = (
  node: GraphNode,
  state: NodeState | undefined,
  stat: Stat | undefined,
  metrics?: NodeMetrics,
): NodeResult | null => {
  const evaluated = !!metrics && (metrics.fresh || Object.values(metrics.values).some((v) => v !== null));
  if (!state && !stat && !evaluated) return null;
  const s = state ?? {};
  const lastRun =
    stat?.lastRunAt && (!s.lastRun || stat.lastRunAt.toISOString() > s.lastRun)
      ? stat.lastRunAt.toISOString()
      : s.lastRun;
  return {
    updated: s.updated ?? false,
    processing: s.processing ?? false,
    waiting: s.waiting ?? false,
    hasError: s.has_error ?? false,
    updatedMetrics: metrics ? metrics.fresh : (s.updatedMetrics ?? false),
    ...(lastRun ? { lastRun } : {}),
    ...(s.error ? { error: s.error } : {}),
    counters: counters(node.type as NodeKind, s, stat, metrics),
  };
};

/** The node with its kind's defaults under its config, and its result. */
export const nodeViewOf = (
  node: GraphNode,
  state: NodeState | undefined,
  stat: Stat | undefined,
  metrics?: NodeMetrics,
): NodeView => {
  const config = { ...NODE_KIND_DEFS[node.type as NodeKind].defaults, ...node.data.config };
  return {
    node: { ...node, data: { name: node.data.name, config } },
    result: nodeResultOf(node, state, stat, metrics),
  };
};

/** Evaluation metrics of the draft's llm/response nodes, by node id. */
export const metricsOf = async (flow: FlowRow) =>
  flowNodeMetrics({
    projectId: flow.projectId,
    flowId: flow.id,
    activeRevisionId: flow.activeRevisionId,
    graph: graphOf(flow),
    prompts: await listPrompts(flow.projectId),
  });

/** The draft's nodes of some kinds, with their results. */
export const listNodeViews = async (flow: FlowRow, kinds: NodeKind[]): Promise<NodeView[]> => {
  const nodes = graphOf(flow).nodes.filter((n) => (kinds as string[]).includes(n.type));
  const stats = await db.flowNodeStat.findMany({ where: { flowId: flow.id, nodeId: { in: nodes.map((n) => n.id) } } });
  const byId = new Map(stats.map((s) => [s.nodeId, s]));
  const states = statesOf(flow);
  const metrics = await metricsOf(flow);
  return nodes.map((n) => nodeViewOf(n, states[n.id], byId.get(n.id), metrics[n.id]));
};
