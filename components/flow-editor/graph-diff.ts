import type { Graph, GraphNode } from "@/server/flows/graph.schema";

/**
 * What a deployed revision would change in the draft if restored, as lines a person reads: nodes added or removed,
 * renamed, settings changed (field by field), connections added or removed. Positions and sizes are not changes.
 */

export type GraphChange = { kind: "added" | "removed" | "changed"; text: string };

const label = (n: GraphNode) => `${n.data.name || n.id} (${n.type})`;
const show = (value: unknown) => (value === undefined ? "unset" : JSON.stringify(value));

export const diffGraphs = (from: Graph, to: Graph): GraphChange[] => {
  const changes: GraphChange[] = [];
  const before = new Map(from.nodes.map((n) => [n.id, n]));
  const after = new Map(to.nodes.map((n) => [n.id, n]));
  const name = (id: string) => {
    const n = after.get(id) ?? before.get(id);
    return n ? n.data.name || n.id : id;
  };
  for (const n of to.nodes) if (!before.has(n.id)) changes.push({ kind: "added", text: `Node ${label(n)}` });
  for (const n of from.nodes) if (!after.has(n.id)) changes.push({ kind: "removed", text: `Node ${label(n)}` });
  for (const n of to.nodes) {
    const old = before.get(n.id);
    if (!old) continue;
    if (old.data.name !== n.data.name) {
      changes.push({ kind: "changed", text: `${label(n)}: name ${show(old.data.name)} → ${show(n.data.name)}` });
    }
    const keys = [...new Set([...Object.keys(old.data.config), ...Object.keys(n.data.config)])].sort();
    for (const key of keys) {
      const [a, b] = [old.data.config[key], n.data.config[key]];
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        changes.push({ kind: "changed", text: `${label(n)}: ${key} ${show(a)} → ${show(b)}` });
      }
    }
  }
  const edgeKey = (e: { source: string; target: string }) => `${e.source}\u0000${e.target}`;
  const oldEdges = new Set(from.edges.map(edgeKey));
  const newEdges = new Set(to.edges.map(edgeKey));
  for (const e of to.edges) {
    if (!oldEdges.has(edgeKey(e)))
      changes.push({ kind: "added", text: `Connection ${name(e.source)} → ${name(e.target)}` });
  }
  for (const e of from.edges) {
    if (!newEdges.has(edgeKey(e))) {
      changes.push({ kind: "removed", text: `Connection ${name(e.source)} → ${name(e.target)}` });
    }
  }
  return changes;
};
