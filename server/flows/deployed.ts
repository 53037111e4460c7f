import { db } from "../db";
import { Graph, isNodeKind } from "./graph.schema";
import { NODE_KIND_DEFS } from "./node-kinds";

/**
 * The flows of a project that serve traffic (they have an active revision), with what describes them as a tool:
 * the active revision's tool description, or failing that the node kinds of its graph in order. Read by the MCP
 * server, which lists each as a tool and watches this list for changes.
 */
export type DeployedFlow = {
  name: string;
  description: string | null;
  revisionId: string;
  toolDescription: string | null;
  /** The node kinds' labels, sources first (the order of the snapshot's nodes after a topological sort). */
  steps: string[];
};

/** Kahn's order over the edges, ties broken by the snapshot's own order, so the same graph reads the same way. */
const orderedNodes = (graph: Graph) => {
  const incoming = new Map(graph.nodes.map((n) => [n.id, 0]));
  for (const e of graph.edges) incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
  const order: Graph["nodes"] = [];
  const left = [...graph.nodes];
  while (left.length) {
    const next = left.findIndex((n) => (incoming.get(n.id) ?? 0) === 0);
    const [node] = left.splice(next === -1 ? 0 : next, 1);
    order.push(node!);
    for (const e of graph.edges) if (e.source === node!.id) incoming.set(e.target, (incoming.get(e.target) ?? 1) - 1);
  }
  return order;
};

const stepsOf = (snapshot: unknown): string[] => {
  const parsed = Graph.safeParse(snapshot);
  if (!parsed.success) return [];
  return orderedNodes(parsed.data).map((n) => (isNodeKind(n.type) ? NODE_KIND_DEFS[n.type].label : n.type));
};

export const listDeployedFlows = async (projectId: string): Promise<DeployedFlow[]> => {
  const flows = await db.flow.findMany({
    where: { projectId, activeRevisionId: { not: null } },
    orderBy: { name: "asc" },
    select: { name: true, description: true, activeRevisionId: true },
  });
  const revisions = await db.flowRevision.findMany({
    where: { projectId, id: { in: flows.map((f) => f.activeRevisionId!) } },
    select: { id: true, toolDescription: true, snapshot: true },
  });
  const byId = new Map(revisions.map((r) => [r.id, r]));
  return flows.flatMap((f) => {
    const revision = byId.get(f.activeRevisionId!);
    if (!revision) return [];
    return [
      {
        name: f.name,
        description: f.description,
        revisionId: revision.id,
        toolDescription: revision.toolDescription?.trim() || null,
        steps: stepsOf(revision.snapshot),
      },
    ];
  });
};

/** What changes when a flow is deployed, rolled back, renamed or deleted: equal fingerprints, equal tool lists. */
export const deployedFlowsFingerprint = async (projectId: string): Promise<string> => {
  const flows = await db.flow.findMany({
    where: { projectId, activeRevisionId: { not: null } },
    orderBy: { name: "asc" },
    select: { name: true, activeRevisionId: true },
  });
  return flows.map((f) => `${f.name}@${f.activeRevisionId}`).join(",");
};
