import { isNodeKind, newNodeId, NODE_KINDS, type NodeKind } from "@/server/flows/graph.schema";
import { NODE_KIND_DEFS } from "@/server/flows/node-kinds.schema";

/**
 * Which connections the editor allows: the node-kind registry's upstream/downstream lists (the same ones the
 * server's graph check enforces), no self-loops, no duplicates and no cycles. Pure.
 */

type NodeRef = { id: string; data: { kind: string } };
type EdgeRef = { source: string; target: string };

export const labelOf = (kind: string) => (isNodeKind(kind) ? NODE_KIND_DEFS[kind].label : kind);

/** Why `source → target` cannot be drawn, or null when it can. */
export const connectionProblem = (
  nodes: readonly NodeRef[],
  edges: readonly EdgeRef[],
  source: string | null | undefined,
  target: string | null | undefined,
): string | null => {
  if (!source || !target) return "Connect two nodes";
  if (source === target) return "A node cannot feed itself";
  const from = nodes.find((n) => n.id === source)?.data.kind;
  const to = nodes.find((n) => n.id === target)?.data.kind;
  if (!from || !to) return "That node no longer exists";
  if (!isNodeKind(from) || !isNodeKind(to)) return "Unknown node type";
  if (!NODE_KIND_DEFS[from].downstream.includes(to)) return `A ${labelOf(from)} node cannot feed a ${labelOf(to)} node`;
  if (edges.some((e) => e.source === source && e.target === target)) return "These nodes are already connected";
  // A path target → … → source would close a loop.
  const seen = new Set<string>();
  const stack = [target];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === source) return "That connection would make a cycle";
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of edges) if (e.source === id) stack.push(e.target);
  }
  return null;
};

/** A new node of `kind`: the registry's defaults, a fresh id that does not clash with the ones on the canvas. */
export const newNodeOf = (kind: NodeKind, existing: readonly { id: string }[], now = Date.now()) => {
  let at = now;
  while (existing.some((n) => n.id === newNodeId(kind, at))) at += 1;
  const def = NODE_KIND_DEFS[kind];
  const sameKind = existing.filter((n) => n.id.startsWith(`${kind}-`)).length;
  return {
    id: newNodeId(kind, at),
    kind,
    name: sameKind ? `${def.label} ${sameKind + 1}` : def.label,
    config: structuredClone(def.defaults) as Record<string, unknown>,
  };
};

export const PALETTE_KINDS: readonly NodeKind[] = NODE_KINDS;
