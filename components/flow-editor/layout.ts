import { graphlib, layout } from "@dagrejs/dagre";

/**
 * Layered layout (dagre), left to right or top to bottom: each node placed after everything that feeds it. Returns
 * top-left positions (React Flow's), keyed by node id. Pure.
 */
export const NODE_SIZE = { width: 240, height: 96 };

export const layoutPositions = (
  nodes: readonly { id: string; width?: number; height?: number }[],
  edges: readonly { source: string; target: string }[],
  direction: "horizontal" | "vertical" = "horizontal",
): Record<string, { x: number; y: number }> => {
  const g = new graphlib.Graph();
  g.setGraph({ rankdir: direction === "vertical" ? "TB" : "LR", nodesep: 30, ranksep: 60, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: n.width ?? NODE_SIZE.width, height: n.height ?? NODE_SIZE.height });
  for (const e of edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  layout(g);
  return Object.fromEntries(
    nodes.map((n) => {
      const p = g.node(n.id);
      const w = n.width ?? NODE_SIZE.width;
      const h = n.height ?? NODE_SIZE.height;
      return [n.id, { x: Math.round(p.x - w / 2), y: Math.round(p.y - h / 2) }];
    }),
  );
};
