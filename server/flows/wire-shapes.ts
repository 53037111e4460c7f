import { db } from "../db";
import { env } from "../env";
import type { GraphNode, NodeKind } from "./graph.schema";
import { NODE_KIND_DEFS } from "./node-kinds";
import type { FlowRow } from "./service";
import { graphOf, statesOf } from "./service";
import { flowNodeMetrics, type NodeMetrics } from "./node-metrics";
import { listPrompts } from "./prompts";
import type { NodeState } from "./node-state";

/**
 * The shape of a flow's nodes (contract §2.9): snake_case results, flags merged into `data.result`. The dashboard's
 * editor reads the same shape as the public API, so it stays here; the rest of the flow service's answers are built
 * in server/public-api/v1/flows/mappers.ts.
 */

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
  const counts = state.counts ?? {};
  const generation = {
    total_responses: runs,
    avg_response_length: Math.round(perRun(stat?.responseChars ?? 0, runs) * 10) / 10,
    avg_processing_time: Math.round(perRun(stat?.processingMs ?? 0, runs)) / 1000,
    contextual_precision: metrics?.values.contextual_precision ?? null,
    contextual_recall: metrics?.values.contextual_recall ?? null,
    answer_relevancy: metrics?.values.answer_relevancy ?? null,
    faithfulness: metrics?.values.faithfulness ?? null,
  };
  switch (kind) {
    case "dataset":
      return { total_documents: counts.total_documents ?? 0, total_chunks: counts.total_chunks ?? 0 };
    case "chunking":
      return { total_chunks: counts.total_chunks ?? 0 };
    case "retrieval":
      return { total_retrievals: runs };
    case "reranking":
      return { total_reranked: stat?.itemsOut ?? 0 };
    case "smart-rag":
      return { total_processed: runs, total_chunks: counts.total_chunks ?? 0, total_retrieved: stat?.itemsOut ?? 0 };
    case "graph-rag":
      return {
        total_processed: runs,
        total_chunks: counts.total_chunks ?? 0,
        total_retrieved: stat?.itemsOut ?? 0,
        total_entities: counts.total_entities ?? 0,
        total_relationships: counts.total_relationships ?? 0,
      };
    case "raptor-rag": {
      // Contract §2.10's formulas; null when the divisor is 0.
      const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 1000 : null);
      const chunks = counts.total_chunks ?? 0;
      const levels = counts.tree_levels ?? 0;
      const clusters = counts.total_clusters ?? 0;
      const summaries = counts.total_summaries ?? 0;
      return {
        total_processed: runs,
        total_chunks: chunks,
        total_retrieved: stat?.itemsOut ?? 0,
        tree_levels: levels,
        total_clusters: clusters,
        total_summaries: summaries,
        clustering_ratio: ratio(clusters, chunks),
        summarization_ratio: ratio(summaries, clusters),
        tree_density: ratio(summaries, levels),
      };
    }
    case "llm":
    case "response":
      return generation;
  }
};

export const toNodeDto = (
  node: GraphNode,
  state: NodeState | undefined,
  stat: Stat | undefined,
  metrics?: NodeMetrics,
) => {
  const kind = node.type as NodeKind;
  const def = NODE_KIND_DEFS[kind];
  const config = { ...def.defaults, ...node.data.config };
  const base = { id: node.id, type: node.type, position: node.position, style: node.style };
  // A node that never ran (no flags, no counters) has no result (§2.9).
  const evaluated = !!metrics && (metrics.fresh || Object.values(metrics.values).some((v) => v !== null));
  if (!state && !stat && !evaluated) return { ...base, data: { name: node.data.name, config } };
  const s = state ?? {};
  const lastRun =
    stat?.lastRunAt && (!s.lastRun || stat.lastRunAt.toISOString() > s.lastRun)
      ? stat.lastRunAt.toISOString()
      : s.lastRun;
  return {
    ...base,
    data: {
      name: node.data.name,
      config,
      result: {
        updated: s.updated ?? false,
        processing: s.processing ?? false,
        waiting: s.waiting ?? false,
        has_error: s.has_error ?? false,
        // llm/response nodes: true only while their evaluation metrics are fresh (./node-metrics.ts).
        updatedMetrics: metrics ? metrics.fresh : (s.updatedMetrics ?? false),
        ...(lastRun ? { lastRun } : {}),
        ...(s.error ? { error: s.error } : {}),
        ...counters(kind, s, stat, metrics),
      },
    },
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

/** The draft's nodes of some kinds, with flags and counters. */
export const listNodeDtos = async (flow: FlowRow, kinds: NodeKind[]) => {
  const nodes = graphOf(flow).nodes.filter((n) => (kinds as string[]).includes(n.type));
  const stats = await db.flowNodeStat.findMany({ where: { flowId: flow.id, nodeId: { in: nodes.map((n) => n.id) } } });
  const byId = new Map(stats.map((s) => [s.nodeId, s]));
  const states = statesOf(flow);
  const metrics = await metricsOf(flow);
  return nodes.map((n) => toNodeDto(n, states[n.id], byId.get(n.id), metrics[n.id]));
};

/** The public run URL: PUBLIC_FLOWS_BASE with the name in front of it, else the absolute path form (§2.8). */
export const flowUrl = (name: string, origin: string) => {
  const base = env.PUBLIC_FLOWS_BASE;
  if (base) {
    const url = new URL(base);
    return `${url.protocol}//${name}.${url.host}${url.pathname.replace(/\/$/, "")}`;
  }
  return `${origin}/api/public/v1/flows/${name}`;
};
