"use client";

import {
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type XYPosition,
} from "@xyflow/react";
import { createContext, useContext } from "react";
import { createStore, useStore, type StoreApi } from "zustand";
import type { Graph, NodeKind } from "@/server/flows/graph.schema";
import { edgeId, toEditorEdges, toEditorNodes, toGraph, type EditorEdge, type EditorNode } from "./graph-mapping";
import { connectionProblem, newNodeOf } from "./graph-rules";
import { emptyStack, record, redo, undo, type UndoStack } from "./history";
import { layoutPositions } from "./layout";

/**
 * One editor's state (STYLE §11): a zustand store per editor instance, provided through context. `edits` counts
 * changes of the draft (autosave watches it); selection and run lights are not edits.
 */

type Snapshot = { nodes: EditorNode[]; edges: EditorEdge[] };
export type RunLight = "running" | "done" | "error";

export type EditorState = {
  nodes: EditorNode[];
  edges: EditorEdge[];
  readOnly: boolean;
  selectedId: string | null;
  history: UndoStack<Snapshot>;
  edits: number;
  lights: Record<string, RunLight>;
  /** Last refused connection, shown briefly. */
  refusal: string | null;
  /** Counts clicks on nodes: the side panel shows the clicked node's settings, even when it was selected already. */
  nodeClicks: number;
  /** The checklist's problems by node id, drawn as badges. */
  issues: Record<string, string[]>;
  /** The server's node results (flags and counters) by node id. */
  results: Record<string, Record<string, unknown>>;
  /** Nodes copied (with the edges among them), pasted as new nodes. */
  clipboard: Snapshot | null;

  load: (graph: Graph, options?: { readOnly?: boolean }) => void;
  setReadOnly: (readOnly: boolean) => void;
  onNodesChange: (changes: NodeChange<EditorNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<EditorEdge>[]) => void;
  onConnect: (connection: Connection) => void;
  /** Called as a drag starts: the positions before it become undoable. */
  checkpoint: () => void;
  addNode: (kind: NodeKind, position: XYPosition) => string;
  updateNode: (id: string, patch: { name?: string; config?: Record<string, unknown> }) => void;
  deleteNode: (id: string) => void;
  /** Copies the selected nodes and the edges between them; returns how many nodes were copied. */
  copySelection: () => number;
  /** Adds the copied nodes again, with new ids and names, offset from the originals and selected. */
  paste: () => void;
  select: (id: string | null) => void;
  clicked: () => void;
  undo: () => void;
  redo: () => void;
  autoLayout: () => void;
  setLights: (update: (lights: Record<string, RunLight>) => Record<string, RunLight>) => void;
  refuse: (message: string | null) => void;
  annotate: (next: Partial<Pick<EditorState, "issues" | "results">>) => void;
  graph: () => Graph;
};

const GRAPH_CHANGES = new Set(["position", "remove", "add", "replace"]);

export const createEditorStore = (graph: Graph, readOnly: boolean) =>
  createStore<EditorState>()((set, get) => {
    const snapshot = (): Snapshot => ({ nodes: get().nodes, edges: get().edges });
    /** A change of the draft: the state before it becomes undoable. */
    const edit = (next: Partial<EditorState>) =>
      set((s) => ({ ...next, history: record(s.history, snapshot()), edits: s.edits + 1 }));
    const restore = (to: Snapshot, history: UndoStack<Snapshot>) =>
      set((s) => ({
        nodes: to.nodes,
        edges: to.edges,
        history,
        edits: s.edits + 1,
        selectedId: to.nodes.some((n) => n.id === s.selectedId) ? s.selectedId : null,
      }));
    return {
      nodes: toEditorNodes(graph),
      edges: toEditorEdges(graph),
      readOnly,
      selectedId: null,
      history: emptyStack(),
      edits: 0,
      lights: {},
      refusal: null,
      nodeClicks: 0,
      issues: {},
      results: {},
      clipboard: null,

      load: (g, options) =>
        set((s) => ({
          nodes: toEditorNodes(g),
          edges: toEditorEdges(g),
          readOnly: options?.readOnly ?? s.readOnly,
          selectedId: null,
          history: emptyStack(),
          lights: {},
          // Counted as an edit so the checklist looks again; autosave is told the loaded graph is the saved one.
          edits: s.edits + 1,
        })),
      setReadOnly: (value) => set({ readOnly: value }),

      onNodesChange: (changes) => {
        const s = get();
        const allowed = s.readOnly ? changes.filter((c) => c.type === "select" || c.type === "dimensions") : changes;
        if (!allowed.length) return;
        const removed = allowed.flatMap((c) => (c.type === "remove" ? [c.id] : []));
        const nodes = applyNodeChanges(allowed, s.nodes);
        const selected = allowed.find((c) => c.type === "select" && c.selected) as { id: string } | undefined;
        const next: Partial<EditorState> = {
          nodes,
          ...(removed.length
            ? {
                edges: s.edges.filter((e) => !removed.includes(e.source) && !removed.includes(e.target)),
                selectedId: removed.includes(s.selectedId ?? "") ? null : s.selectedId,
              }
            : {}),
          ...(selected ? { selectedId: selected.id } : {}),
        };
        if (removed.length) return edit(next);
        // A drag's moves were made undoable by checkpoint() when it started; each move still counts as an edit.
        const moved = allowed.some((c) => GRAPH_CHANGES.has(c.type));
        set((st) => ({ ...next, edits: moved ? st.edits + 1 : st.edits }));
      },

      onEdgesChange: (changes) => {
        const s = get();
        const allowed = s.readOnly ? changes.filter((c) => c.type === "select") : changes;
        if (!allowed.length) return;
        const edges = applyEdgeChanges(allowed, s.edges);
        if (allowed.some((c) => c.type === "remove")) edit({ edges });
        else set({ edges });
      },

      onConnect: (connection) => {
        const s = get();
        if (s.readOnly) return;
        const problem = connectionProblem(s.nodes, s.edges, connection.source, connection.target);
        if (problem) return set({ refusal: problem });
        edit({
          edges: addEdge({ ...connection, id: edgeId(connection.source, connection.target) }, s.edges),
          refusal: null,
        });
      },

      checkpoint: () => set((s) => ({ history: record(s.history, snapshot()) })),

      addNode: (kind, position) => {
        const s = get();
        const made = newNodeOf(kind, s.nodes);
        const node: EditorNode = {
          id: made.id,
          type: "flow",
          position,
          selected: true,
          data: { kind, name: made.name, config: made.config, style: { width: 240, height: 80 } },
        };
        edit({
          nodes: [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node],
          selectedId: node.id,
        });
        return node.id;
      },

      updateNode: (id, patch) => {
        const s = get();
        const node = s.nodes.find((n) => n.id === id);
        if (!node || s.readOnly) return;
        const data = {
          ...node.data,
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.config ? { config: { ...node.data.config, ...patch.config } } : {}),
        };
        if (JSON.stringify(data) === JSON.stringify(node.data)) return;
        edit({ nodes: s.nodes.map((n) => (n.id === id ? { ...n, data } : n)) });
      },

      deleteNode: (id) => {
        const s = get();
        if (s.readOnly) return;
        edit({
          nodes: s.nodes.filter((n) => n.id !== id),
          edges: s.edges.filter((e) => e.source !== id && e.target !== id),
          selectedId: s.selectedId === id ? null : s.selectedId,
        });
      },

      copySelection: () => {
        const s = get();
        const nodes = s.nodes.filter((n) => n.selected || n.id === s.selectedId);
        if (!nodes.length) return 0;
        const ids = new Set(nodes.map((n) => n.id));
        const edges = s.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
        set({ clipboard: structuredClone({ nodes, edges }) });
        return nodes.length;
      },

      paste: () => {
        const s = get();
        if (s.readOnly || !s.clipboard?.nodes.length) return;
        const renamed = new Map<string, string>();
        const existing: { id: string }[] = [...s.nodes];
        const pasted = s.clipboard.nodes.map((n) => {
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
        const edges = s.clipboard.edges.map((e) => {
          const source = renamed.get(e.source)!;
          const target = renamed.get(e.target)!;
          return { ...e, id: edgeId(source, target), source, target, selected: false };
        });
        edit({
          nodes: [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted],
          edges: [...s.edges, ...edges],
          selectedId: pasted.length === 1 ? pasted[0]!.id : null,
        });
      },

      select: (id) =>
        set((s) => ({
          selectedId: id,
          nodes: s.nodes.map((n) => (n.selected === (n.id === id) ? n : { ...n, selected: n.id === id })),
        })),

      clicked: () => set((s) => ({ nodeClicks: s.nodeClicks + 1 })),

      undo: () => {
        const s = get();
        const step = s.readOnly ? null : undo(s.history, snapshot());
        if (step) restore(step.value, step.stack);
      },
      redo: () => {
        const s = get();
        const step = s.readOnly ? null : redo(s.history, snapshot());
        if (step) restore(step.value, step.stack);
      },

      autoLayout: () => {
        const s = get();
        if (s.readOnly || !s.nodes.length) return;
        const positions = layoutPositions(
          s.nodes.map((n) => ({ id: n.id, width: n.measured?.width, height: n.measured?.height })),
          s.edges,
        );
        edit({ nodes: s.nodes.map((n) => ({ ...n, position: positions[n.id] ?? n.position })) });
      },

      setLights: (update) => set((s) => ({ lights: update(s.lights) })),
      refuse: (message) => set({ refusal: message }),
      annotate: (next) => set(next),
      graph: () => toGraph(get().nodes, get().edges),
    };
  });

export type EditorStore = StoreApi<EditorState>;

export const EditorStoreContext = createContext<EditorStore | null>(null);

export const useEditor = <T>(selector: (state: EditorState) => T): T => {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error("useEditor outside the flow editor");
  return useStore(store, selector);
};

export const useEditorStore = () => {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error("useEditorStore outside the flow editor");
  return store;
};
