import type { RetrievedChunk } from "../retrieval/types";
import { errorMessage } from "../errors";
import type { Graph, NodeKind, Prompt } from "./graph.schema";
import { parseNodeConfig } from "./node-kinds";
import { OPERATIONS, type Generated, type NodeOutput, type RunContext } from "./node-operations";
import { readyIndexFor } from "./node-indexes/service";
import { reachable } from "./node-state";
import { topologicalOrder } from "./validate-graph";

/**
 * Runs a flow graph (a revision's snapshot, or the draft for a simulation) for one query: the nodes the response
 * node depends on, in topological order, each fed its upstream nodes' outputs. Node events (started, finished,
 * error) and the answer's tokens go to `onEvent` as they happen; the caller writes the outcomes' counters
 * (./node-stats.ts). A streamed run's `signal` stops it between nodes.
 */

export type NodeEvent = {
  type: "node";
  node_id: string;
  node_type: NodeKind;
  status: "started" | "finished" | "error";
  elapsed_ms?: number;
  detail?: string;
};
export type FlowEvent = NodeEvent | { type: "token"; text: string };

export type NodeOutcome = {
  id: string;
  ok: boolean;
  ms: number;
  itemsOut: number;
  responseChars: number;
  error?: string;
  counts?: Record<string, number>;
};

export type RunResult = {
  items: RetrievedChunk[];
  generated: Generated | null;
  outcomes: NodeOutcome[];
  /** Every node's output by id (an evaluation scores each llm/response node on its own passages and text). */
  outputs: Map<string, NodeOutput>;
};

export class FlowRunError extends Error {}

const simulationIndexOf =
  (projectId: string): RunContext["nodeIndexOf"] =>
  (nodeId, kind, config, chunkSetIds) =>
    readyIndexFor(projectId, nodeId, kind, config, chunkSetIds);

const ancestorsOf = (graph: Graph, id: string) => new Set(reachable(graph, id, "up"));

export const runGraph = async ({
  projectId,
  graph,
  prompts,
  query,
  targets,
  chunkSetsOf,
  nodeIndexOf = simulationIndexOf(projectId),
  onEvent,
  signal,
  measure = false,
}: {
  projectId: string;
  graph: Graph;
  prompts: Prompt[];
  query: string;
  /** Nodes whose results are wanted (default: the response node); their upstream nodes run first. */
  targets?: string[];
  chunkSetsOf: RunContext["chunkSetsOf"];
  /** Default: a ready index of the same inputs (a simulation never builds one). */
  nodeIndexOf?: RunContext["nodeIndexOf"];
  onEvent?: (event: FlowEvent) => void;
  signal?: AbortSignal;
  /** Count documents and chunks of dataset and chunking nodes (simulations; a deployed run skips the queries). */
  measure?: boolean;
}): Promise<RunResult> => {
  const response = graph.nodes.find((n) => n.type === "response");
  const wanted = targets ?? (response ? [response.id] : []);
  const needed = new Set(wanted.flatMap((id) => [id, ...ancestorsOf(graph, id)]));
  const order = (
    topologicalOrder(
      graph.nodes.map((n) => n.id),
      graph.edges,
    ) ?? []
  ).filter((id) => needed.has(id));
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const responseUpstream = response ? ancestorsOf(graph, response.id) : new Set<string>();
  const firstLlm = order.find((id) => byId.get(id)?.type === "llm" && responseUpstream.has(id));
  const ctx: RunContext = {
    projectId,
    query,
    prompts,
    chunkSetsOf,
    nodeIndexOf,
    measure,
    isFinalGenerator: (id) => id === (firstLlm ?? response?.id),
    onToken: (text) => onEvent?.({ type: "token", text }),
    signal,
  };
  const outputs = new Map<string, NodeOutput>();
  const outcomes: NodeOutcome[] = [];
  for (const id of order) {
    // A streamed run whose client went away stops here, between nodes (a model call in flight gets the signal too).
    if (signal?.aborted) {
      throw Object.assign(new FlowRunError(`stopped: ${errorMessage(signal.reason)}`), { outcomes });
    }
    const node = byId.get(id)!;
    const kind = node.type as NodeKind;
    const started = performance.now();
    onEvent?.({ type: "node", node_id: id, node_type: kind, status: "started" });
    try {
      const inputs = graph.edges.filter((e) => e.target === id).map((e) => outputs.get(e.source) ?? {});
      const config = parseNodeConfig(kind, node.data.config);
      const out = await OPERATIONS[kind]({ nodeId: id, config, inputs, ctx });
      outputs.set(id, out);
      const ms = performance.now() - started;
      const ownText = out.generated && !inputs.some((i) => i.generated === out.generated) ? out.generated.text : "";
      outcomes.push({
        id,
        ok: true,
        ms,
        itemsOut: out.items?.length ?? 0,
        responseChars: ownText.length,
        counts: out.counts,
      });
      onEvent?.({ type: "node", node_id: id, node_type: kind, status: "finished", elapsed_ms: Math.round(ms) });
    } catch (error) {
      const ms = performance.now() - started;
      outcomes.push({ id, ok: false, ms, itemsOut: 0, responseChars: 0, error: errorMessage(error) });
      onEvent?.({ type: "node", node_id: id, node_type: kind, status: "error", detail: errorMessage(error) });
      throw Object.assign(new FlowRunError(`${node.data.name || id}: ${errorMessage(error)}`), { outcomes });
    }
  }
  const final = response ? outputs.get(response.id) : undefined;
  return { items: final?.items ?? [], generated: final?.generated ?? null, outcomes, outputs };
};
