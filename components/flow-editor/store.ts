"use client";

import {
  addEdge,
  applyEdgeChanges,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type XYPosition,
} from "@xyflow/react";
import { createContext, useContext } from "react";
import { createStore, useStore, type StoreApi } from "zustand";
import type { Graph, NodeKind } from "@/server/flows/graph.schema";
import type { NodeResult } from "@/server/flows/node-results";
import { edgeId, toEditorEdges, toEditorNodes, toGraph, type EditorEdge, type EditorNode } from "./graph-mapping";
import { connectionProblem } from "./graph-rules";
import type { FlowDirection } from "./placement";
import { emptyStack, record, redo, undo, type UndoStack } from "./history";
import {
  copyOfSelection,
  laidOut,
  nodesChanged,
  withNewNode,
  withNodeUpdated,
  withPasted,
  type Snapshot,
} from "./store-edits";

/**
 * One editor's state (STYLE §11): a zustand store per editor instance, provided through context. `edits` counts
 * changes of the draft (autosave watches it); selection and run lights are not edits.
 */

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
  results: Record<string, NodeResult>;
  /** Nodes copied (with the edges among them), pasted as new nodes. */
  clipboard: Snapshot | null;

  load: (graph: Graph, options?: { readOnly?: boolean }) => void;
  setReadOnly: (readOnly: boolean) => void;
  onNodesChange: (changes: NodeChange<EditorNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<EditorEdge>[]) => void;
  onConnect: (connection: Connection) => void;
  /** Called as a drag starts: the positions before it become undoable. */
  checkpoint: () => void;
  /** A new node at the position (its top-left corner), moved clear of the nodes already there. */
  addNode: (kind: NodeKind, position: XYPosition) => string;
  updateNode: (id: string, patch: { name?: string; config?: Record<string, unknown> }) => void;
  deleteNode: (id: string) => void;
  /** Copies the selected nodes and the edges between them; returns how many nodes were copied. */
  copySelection: () => number;
  /** Adds the copied nodes again, with new ids and names, offset from the originals and selected. */
  paste: () => void;
  select: (id: string | null) => void;
  /**
   * A click on a node: it is counted, and a plain click (no key held to add to a selection) selects that node alone,
   * whatever React Flow made of the click, so the side panel always shows the node the user clicked.
   */
  clicked: (id: string, options?: { adding?: boolean }) => void;
  undo: () => void;
  redo: () => void;
  autoLayout: (direction?: FlowDirection) => void;
  setLights: (update: (lights: Record<string, RunLight>) => Record<string, RunLight>) => void;
  refuse: (message: string | null) => void;
  annotate: (next: Partial<Pick<EditorState, "issues" | "results">>) => void;
  graph: () => Graph;
};

/** The state a store starts from, before any action. */
const initialState = (graph: Graph, readOnly: boolean) => ({
  nodes: toEditorNodes(graph),
  edges: toEditorEdges(graph),
  readOnly,
  selectedId: null,
  history: emptyStack<Snapshot>(),
  edits: 0,
  lights: {},
  refusal: null,
  nodeClicks: 0,
  issues: {},
  results: {},
  clipboard: null,
});

type SetState = StoreApi<EditorState>["setState"];
type GetState = StoreApi<EditorState>["getState"];
type Edit = (next: Partial<EditorState>) => void;

const snapshotOf = (s: EditorState): Snapshot => ({ nodes: s.nodes, edges: s.edges });

/** Undo and redo over snapshots of the graph; a read-only editor has neither. */
const undoActions = (set: SetState, get: GetState) => {
  const restore = (to: Snapshot, history: UndoStack<Snapshot>) =>
    set((s) => {
      const selectedId = to.nodes.some((n) => n.id === s.selectedId) ? s.selectedId : null;
      // The snapshot's selection flags are from its time; the current selection is the one the panel shows.
      const nodes = to.nodes.map((n) =>
        !!n.selected === (n.id === selectedId) ? n : { ...n, selected: n.id === selectedId },
      );
      return { nodes, edges: to.edges, history, edits: s.edits + 1, selectedId };
    });
  return {
    checkpoint: () => set((s) => ({ history: record(s.history, snapshotOf(s)) })),
    undo: () => {
      const s = get();
      const step = s.readOnly ? null : undo(s.history, snapshotOf(s));
      if (step) restore(step.value, step.stack);
    },
    redo: () => {
      const s = get();
      const step = s.readOnly ? null : redo(s.history, snapshotOf(s));
      if (step) restore(step.value, step.stack);
    },
  };
};

/** What React Flow reports (node and edge changes, new connections) and the node actions of the side panel. */
const graphActions = (set: SetState, get: GetState, edit: Edit) => ({
  onNodesChange: (changes: NodeChange<EditorNode>[]) => {
    const change = nodesChanged(get(), changes);
    if (!change) return;
    if (change.removed) return edit(change.next);
    set((st) => ({ ...change.next, edits: change.moved ? st.edits + 1 : st.edits }));
  },

  onEdgesChange: (changes: EdgeChange<EditorEdge>[]) => {
    const s = get();
    const allowed = s.readOnly ? changes.filter((c) => c.type === "select") : changes;
    if (!allowed.length) return;
    const edges = applyEdgeChanges(allowed, s.edges);
    if (allowed.some((c) => c.type === "remove")) edit({ edges });
    else set({ edges });
  },

  onConnect: (connection: Connection) => {
    const s = get();
    if (s.readOnly) return;
    const problem = connectionProblem(s.nodes, s.edges, connection.source, connection.target);
    if (problem) return set({ refusal: problem });
    edit({
      edges: addEdge({ ...connection, id: edgeId(connection.source, connection.target) }, s.edges),
      refusal: null,
    });
  },

  addNode: (kind: NodeKind, position: XYPosition) => {
    const { id, next } = withNewNode(get(), kind, position);
    edit(next);
    return id;
  },

  updateNode: (id: string, patch: { name?: string; config?: Record<string, unknown> }) => {
    const next = withNodeUpdated(get(), id, patch);
    if (next) edit(next);
  },

  deleteNode: (id: string) => {
    const s = get();
    if (s.readOnly) return;
    edit({
      nodes: s.nodes.filter((n) => n.id !== id),
      edges: s.edges.filter((e) => e.source !== id && e.target !== id),
      selectedId: s.selectedId === id ? null : s.selectedId,
    });
  },
});

export const createEditorStore = (graph: Graph, readOnly: boolean) =>
  createStore<EditorState>()((set, get) => {
    /** A change of the draft: the state before it becomes undoable. */
    const edit: Edit = (next) =>
      set((s) => ({ ...next, history: record(s.history, snapshotOf(s)), edits: s.edits + 1 }));
    return {
      ...initialState(graph, readOnly),
      ...undoActions(set, get),
      ...graphActions(set, get, edit),

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

      copySelection: () => {
        const clipboard = copyOfSelection(get());
        if (!clipboard) return 0;
        set({ clipboard });
        return clipboard.nodes.length;
      },

      paste: () => {
        const s = get();
        if (s.readOnly || !s.clipboard?.nodes.length) return;
        edit(withPasted(s, s.clipboard));
      },

      select: (id) =>
        set((s) => ({
          selectedId: id,
          nodes: s.nodes.map((n) => (n.selected === (n.id === id) ? n : { ...n, selected: n.id === id })),
        })),

      clicked: (id, options) => {
        if (!options?.adding) get().select(id);
        set((s) => ({ nodeClicks: s.nodeClicks + 1 }));
      },

      autoLayout: (direction) => {
        const s = get();
        if (s.readOnly || !s.nodes.length) return;
        edit(laidOut(s, direction));
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
