import type { Graph, NodeFlags } from "./graph.schema";

/**
 * Node flags of the draft (contract §4.4), by node id, with the counts a deploy or simulation measured (documents and
 * chunks of datasets and chunking nodes). Pure functions over the stored JSON.
 */
export type NodeState = Partial<NodeFlags> & { counts?: Record<string, number>; error?: string };
export type NodeStates = Record<string, NodeState>;

/** Every node reachable from `nodeId` (not itself) following edges downstream, or upstream. */
export const reachable = (graph: Graph, nodeId: string, direction: "down" | "up" = "down"): string[] => {
  const found = new Set<string>();
  const visit = (id: string) => {
    for (const e of graph.edges) {
      const [from, to] = direction === "down" ? [e.source, e.target] : [e.target, e.source];
      if (from === id && !found.has(to)) {
        found.add(to);
        visit(to);
      }
    }
  };
  visit(nodeId);
  return [...found];
};

export const downstreamOf = (graph: Graph, nodeId: string) => reachable(graph, nodeId, "down");

/** A node's config changed: it must be processed again, and everything downstream waits for it. */
export const markChanged = (states: NodeStates, graph: Graph, nodeId: string): NodeStates => {
  const next: NodeStates = { ...states };
  next[nodeId] = { ...next[nodeId], updated: false, updatedMetrics: false };
  for (const id of downstreamOf(graph, nodeId)) next[id] = { ...next[id], updated: false, waiting: true };
  return next;
};

export const markProcessing = (states: NodeStates, ids: string[]): NodeStates => {
  const next: NodeStates = { ...states };
  for (const id of ids) next[id] = { ...next[id], processing: true };
  return next;
};

/** Outcome of processing nodes (a simulation or a deploy): success clears the flags, failure sets has_error. */
export const markProcessed = (
  states: NodeStates,
  outcome: { id: string; ok: boolean; error?: string; counts?: Record<string, number> }[],
  at = new Date(),
): NodeStates => {
  const next: NodeStates = { ...states };
  for (const o of outcome) {
    const prev = next[o.id] ?? {};
    next[o.id] = o.ok
      ? {
          ...prev,
          updated: true,
          processing: false,
          waiting: false,
          has_error: false,
          updatedMetrics: true,
          lastRun: at.toISOString(),
          error: undefined,
          counts: { ...prev.counts, ...o.counts },
        }
      : { ...prev, processing: false, has_error: true, lastRun: at.toISOString(), error: o.error };
  }
  return next;
};
