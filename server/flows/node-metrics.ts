import { db } from "../db";
import { isGeneratorKind, nodeFingerprint } from "./fingerprint";
import type { Graph, Prompt } from "./graph.schema";
import { METRIC_KEYS, type MetricKey } from "./node-kinds/generation";

/**
 * The quality metrics the llm/response nodes of a flow show (contract §2.10): the latest completed evaluation of the
 * serving revision, or of the draft when the serving revision has none (or nothing serves). `updatedMetrics` says
 * they are fresh: computed for the node as it is configured now (its fingerprint, upstream included, is unchanged)
 * while the revision that served when the run started still serves.
 */

export type NodeMetrics = { values: Record<MetricKey, number | null>; fresh: boolean };

/** What is read here of a node's aggregate as an evaluation run stores it (server/evaluation/run-steps.ts). */
type StoredAggregate = { fingerprint: string; metrics: Record<string, { mean: number | null } | undefined> };

const EMPTY = Object.fromEntries(METRIC_KEYS.map((k) => [k, null])) as Record<MetricKey, number | null>;

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

export const flowNodeMetrics = async ({
  projectId,
  flowId,
  activeRevisionId,
  graph,
  prompts,
}: {
  projectId: string;
  flowId: string;
  activeRevisionId: string | null;
  graph: Graph;
  prompts: Prompt[];
}): Promise<Record<string, NodeMetrics>> => {
  // A cancelled run covered part of its test set only: its figures are not the flow's.
  const finished = { projectId, flowId, status: "completed" as const };
  const select = { aggregates: true, servingRevisionId: true } as const;
  const run =
    (activeRevisionId
      ? await db.evaluationRun.findFirst({
          where: { ...finished, target: "revision", revisionId: activeRevisionId },
          orderBy: { finishedAt: "desc" },
          select,
        })
      : null) ??
    (await db.evaluationRun.findFirst({
      where: { ...finished, target: "draft" },
      orderBy: { finishedAt: "desc" },
      select,
    }));
  const aggregates = (run?.aggregates ?? {}) as Record<string, StoredAggregate>;
  const result: Record<string, NodeMetrics> = {};
  for (const node of graph.nodes.filter((n) => isGeneratorKind(n.type))) {
    const aggregate = aggregates[node.id];
    if (!run || !aggregate) {
      result[node.id] = { values: EMPTY, fresh: false };
      continue;
    }
    const values = Object.fromEntries(METRIC_KEYS.map((k) => [k, round(aggregate.metrics[k]?.mean ?? null)])) as Record<
      MetricKey,
      number | null
    >;
    const fresh =
      run.servingRevisionId === activeRevisionId && aggregate.fingerprint === nodeFingerprint(graph, node.id, prompts);
    result[node.id] = { values, fresh };
  }
  return result;
};
