import { flowStatusLabel } from "@/server/flows/flow-status";
import type { latestRevision } from "@/server/flows/public-queries";
import type { FlowRow } from "@/server/flows/service";
import type { simulateNode } from "@/server/flows/run-flow";
import type { RunResult } from "@/server/flows/run-graph";
import { flowUrl } from "@/server/flows/flow-url";
import type { NodeResult, NodeView } from "@/server/flows/node-results";
import { toCitation } from "../answers/mappers";

/** The flow service's snake_case answers (contract §2.8, §7), built from the flows domain's rows and results. */

export const toFlowSummary = (flow: FlowRow, origin: string) => ({
  name: flow.name,
  description: flow.description,
  status: flowStatusLabel(flow.status),
  url: flow.status === "Deployed" ? flowUrl(flow.name, origin) : null,
});

type Revision = NonNullable<Awaited<ReturnType<typeof latestRevision>>>;

/** GET /flows/{name}: the summary, the revision that serves, and the latest deploy. */
export const toFlowDetail = (flow: FlowRow, latest: Revision | null, origin: string) => ({
  ...toFlowSummary(flow, origin),
  revision_id: flow.activeRevisionId,
  deploy: latest && {
    revision_id: latest.id,
    status: latest.status,
    step: latest.step,
    progress: latest.progress,
    error: latest.error,
  },
});

/** The run response of §7.2: one page of items, and the answer with the model (or local method) that wrote it. */
export const toRunResponse = (result: Pick<RunResult, "items" | "generated">, page: number, pageSize: number) => {
  const total = result.items.length;
  return {
    items: result.items.slice((page - 1) * pageSize, page * pageSize).map((c) => ({
      page_content: c.text,
      metadata: {
        source: c.fileName,
        page: c.pageNumber,
        chunk_id: c.chunkId,
        relevance_score: c.score,
        file_id: c.sourceId,
        // A RAPTOR node's items: the tree level, and for a summary every document under it (source ids).
        ...(c.level === undefined ? {} : { level: c.level }),
        ...(c.level ? { file_ids: (c.metadata.raptor as { documents?: string[] } | undefined)?.documents ?? [] } : {}),
        // What led a graph-rag node to the chunk (its entities and community).
        ...(c.metadata.graph ? { graph: c.metadata.graph } : {}),
      },
    })),
    total,
    page,
    page_size: pageSize,
    total_pages: Math.ceil(total / pageSize),
    ...(result.generated
      ? {
          answer: result.generated.text,
          model: result.generated.model,
          citations: result.generated.citations.map(toCitation),
        }
      : {}),
  };
};

/** `totalChunks` → `total_chunks`: the domain's counter names are the contract's, in camelCase. */
const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A node's `data.result` (§2.9): the flags (the contract spells two in camelCase), then the kind's counters. */
const toNodeResult = (result: NodeResult) => ({
  updated: result.updated,
  processing: result.processing,
  waiting: result.waiting,
  has_error: result.hasError,
  updatedMetrics: result.updatedMetrics,
  ...(result.lastRun ? { lastRun: result.lastRun } : {}),
  ...(result.error ? { error: result.error } : {}),
  ...Object.fromEntries(Object.entries(result.counters).map(([key, value]) => [snakeCase(key), value])),
});

/** A flow node (§2.9): its graph fields, and `data` with its config and, once it ran, its result. */
export const toNodeDto = ({ node, result }: NodeView) => ({
  id: node.id,
  type: node.type,
  position: node.position,
  style: node.style,
  data: { name: node.data.name, config: node.data.config, ...(result ? { result: toNodeResult(result) } : {}) },
});

/** POST /nodes/simulate: the node and every node downstream of it, as they are now. */
export const toSimulateNodeResponse = ({ nodeId, updatedNodes }: Awaited<ReturnType<typeof simulateNode>>) => ({
  success: true,
  message: `Node '${nodeId}' simulated successfully`,
  updated_nodes: updatedNodes.map(toNodeDto).map((n) => ({ id: n.id, type: n.type, data: n.data })),
});
