import { applyNodeChanges, type NodeChange, type XYPosition } from "@xyflow/react";
import type { NodeKind } from "@/server/flows/graph.schema";
import { edgeId, type EditorEdge, type EditorNode } from "./graph-mapping";
import { newNodeOf } from "./graph-rules";
import { layoutPositions } from "./layout";
import { freeSpot, type FlowDirection } from "./placement";

/**
 * The editor store's larger changes as functions from the state to the fields that change, so the store itself
 * only decides whether a change is an undoable edit.
 */

export type Snapshot = { nodes: EditorNode[]; edges: EditorEdge[] };

/** The part of the editor's state these changes read and write. */
type GraphState = Snapshot & { readOnly: boolean; selectedId: string | null };

const GRAPH_CHANGES = new Set(["position", "remove", "add", "replace"]);

const unselected = (nodes: EditorNode[]) => nodes.map((n) => (n.selected ? { ...n, selected: false } : n));

/**
 * What React Flow's node changes lead to: a removal is an undoable edit; moves count as edits too (a drag was made
 * undoable by checkpoint() when it started), selection and measuring do not.
 */
export const nodesChanged = (s: GraphState, changes: NodeChange<EditorNode>[]) => {
  const allowed = s.readOnly ? changes.filter((c) => c.type === "select" || c.type === "dimensions") : changes;
  if (!allowed.length) return null;
  const removed = allowed.flatMap((c) => (c.type === "remove" ? [c.id] : []));
  const nodes = applyNodeChanges(allowed, s.nodes);
  const selected = allowed.find((c) => c.type === "select" && c.selected) as { id: string } | undefined;
  const next: Partial<GraphState> = {
    nodes,
    ...(removed.length
      ? {
          edges: s.edges.filter((e) => !removed.includes(e.source) && !removed.includes(e.target)),
          selectedId: removed.includes(s.selectedId ?? "") ? null : s.selectedId,
        }
      : {}),
    ...(selected ? { selectedId: selected.id } : {}),
  };
  return { next, removed: removed.length > 0, moved: allowed.some((c) => GRAPH_CHANGES.has(c.type)) };
};

/** A new node of the kind at the position (moved clear of the nodes there), selected alone. */
export const withNewNode = (s: GraphState, kind: NodeKind, position: XYPosition) => {
  const made = newNodeOf(kind, s.nodes);
  const node: EditorNode = {
    id: made.id,
    type: "flow",
    position: freeSpot(position, s.nodes),
    selected: true,
    data: { kind, name: made.name, config: made.config, style: { width: 240, height: 80 } },
  };
  return { id: node.id, next: { nodes: [...unselected(s.nodes), node], selectedId: node.id } };
};

/** The node renamed or reconfigured; null when nothing would change. */
export const withNodeUpdated = (
  s: GraphState,
  id: string,
  patch: { name?: string; config?: Record<string, unknown> },
): Partial<GraphState> | null => {
  const node = s.nodes.find((n) => n.id === id);
  if (!node || s.readOnly) return null;
  const data = {
    ...node.data,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.config ? { config: { ...node.data.config, ...patch.config } } : {}),
  };
  if (JSON.stringify(data) === JSON.stringify(node.data)) return null;
  return { nodes: s.nodes.map((n) => (n.id === id ? { ...n, data } : n)) };
};

/** The selected nodes and the edges between them, as the clipboard keeps them; null when nothing is selected. */
export const copyOfSelection = (s: GraphState): Snapshot | null => {
  const nodes = s.nodes.filter((n) => n.selected || n.id === s.selectedId);
  if (!nodes.length) return null;
  const ids = new Set(nodes.map((n) => n.id));
  const edges = s.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  return structuredClone({ nodes, edges });
};

/** The clipboard's nodes added again with new ids and names, offset from the originals and selected. */
export const withPasted = (s: GraphState, clipboard: Snapshot): Partial<GraphState> => {
  const renamed = new Map<string, string>();
  const existing: { id: string }[] = [...s.nodes];
  const pasted = clipboard.nodes.map((n) => {
    const made = newNodeOf(n.data.kind as NodeKind, existing);
    existing.push({ id: made.id });
    renamed.set(n.id, made.id);
    return {
      ...structuredClone(n),
      id: made.id,
      selected: true,
      position: { x: n.position.x + 40, y: n.position.y + 40 },
      data: { ...structuredClone(n.data), name: `${n.data.name} copy` },
    };
  });
  const edges = clipboard.edges.map((e) => {
    const source = renamed.get(e.source)!;
    const target = renamed.get(e.target)!;
    return { ...e, id: edgeId(source, target), source, target, selected: false };
  });
  return {
    nodes: [...unselected(s.nodes), ...pasted],
    edges: [...s.edges, ...edges],
    selectedId: pasted.length === 1 ? pasted[0]!.id : null,
  };
};

/** Every node placed by the automatic layout. */
export const laidOut = (s: GraphState, direction: FlowDirection = "horizontal"): Partial<GraphState> => {
  const positions = layoutPositions(
    s.nodes.map((n) => ({ id: n.id, width: n.measured?.width, height: n.measured?.height })),
    s.edges,
    direction,
  );
  return { nodes: s.nodes.map((n) => ({ ...n, position: positions[n.id] ?? n.position })) };
};
