import type { Edge, Node } from "@xyflow/react";
import type { Graph, GraphNode } from "@/server/flows/graph.schema";

/**
 * The stored graph (server/flows/graph.schema.ts) ↔ React Flow's nodes and edges. Only what the graph schema
 * describes goes back to the server: React Flow's own fields (measured, selected, dragging, ...) never do (STYLE §11).
 */

export type FlowNodeData = {
  /** The node's type in the stored graph: a NodeKind, or an unknown type the checklist reports. */
  kind: string;
  name: string;
  config: Record<string, unknown>;
  style: GraphNode["style"];
};
export type EditorNode = Node<FlowNodeData, "flow">;
export type EditorEdge = Edge;

export const edgeId = (source: string, target: string) => `${source}->${target}`;

export const toEditorNodes = (graph: Graph): EditorNode[] =>
  graph.nodes.map((n) => ({
    id: n.id,
    type: "flow",
    position: { x: n.position.x, y: n.position.y },
    data: { kind: n.type, name: n.data.name, config: n.data.config, style: n.style },
  }));

export const toEditorEdges = (graph: Graph): EditorEdge[] =>
  graph.edges.map((e) => ({ id: edgeId(e.source, e.target), source: e.source, target: e.target }));

export const toGraph = (nodes: readonly EditorNode[], edges: readonly Pick<Edge, "source" | "target">[]): Graph => ({
  nodes: nodes.map((n) => ({
    id: n.id,
    type: n.data.kind,
    position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
    style: n.data.style,
    data: { name: n.data.name, config: n.data.config },
  })),
  edges: edges.map((e) => ({ source: e.source, target: e.target })),
});
