import { describe, expect, it } from "vitest";
import { createEditorStore } from "./store";

const empty = { nodes: [], edges: [] };

describe("the editor store", () => {
  it("adds, connects by the registry's rules, deletes with edges, and undoes/redoes each step", () => {
    const store = createEditorStore(empty, false);
    const s = () => store.getState();
    const dataset = s().addNode("dataset", { x: 0, y: 0 });
    const retrieval = s().addNode("retrieval", { x: 300, y: 0 });
    const response = s().addNode("response", { x: 600, y: 0 });
    expect(s().selectedId).toBe(response);

    s().onConnect({ source: dataset, target: response, sourceHandle: null, targetHandle: null });
    expect(s().edges).toHaveLength(0);
    expect(s().refusal).toBe("A Dataset node cannot feed a Response node");
    s().onConnect({ source: dataset, target: retrieval, sourceHandle: null, targetHandle: null });
    s().onConnect({ source: retrieval, target: response, sourceHandle: null, targetHandle: null });
    expect(s().edges.map((e) => `${e.source}>${e.target}`)).toEqual([
      `${dataset}>${retrieval}`,
      `${retrieval}>${response}`,
    ]);

    s().deleteNode(retrieval);
    expect(s().nodes).toHaveLength(2);
    expect(s().edges).toHaveLength(0);
    s().undo();
    expect(s().nodes).toHaveLength(3);
    expect(s().edges).toHaveLength(2);
    s().redo();
    expect(s().edges).toHaveLength(0);
    s().undo();

    const graph = s().graph();
    expect(graph.nodes.map((n) => n.type)).toEqual(["dataset", "retrieval", "response"]);
    expect(graph.edges).toHaveLength(2);
    expect(JSON.stringify(graph)).not.toMatch(/selected|measured|dragging/);
  });

  it("copies selected nodes with the edges between them and pastes them as new, undoable nodes", () => {
    const store = createEditorStore(empty, false);
    const s = () => store.getState();
    const dataset = s().addNode("dataset", { x: 0, y: 0 });
    const retrieval = s().addNode("retrieval", { x: 300, y: 0 });
    s().onConnect({ source: dataset, target: retrieval, sourceHandle: null, targetHandle: null });
    s().updateNode(retrieval, { config: { topK: 7 } });
    s().onNodesChange([
      { type: "select", id: dataset, selected: true },
      { type: "select", id: retrieval, selected: true },
    ]);
    expect(s().copySelection()).toBe(2);

    s().paste();
    expect(s().nodes).toHaveLength(4);
    const copies = s().nodes.slice(2);
    expect(copies.map((n) => n.id)).not.toContain(dataset);
    expect(copies.map((n) => n.data.kind)).toEqual(["dataset", "retrieval"]);
    expect(copies[1]!.data.config).toMatchObject({ topK: 7 });
    expect(copies.map((n) => n.position)).toEqual([
      { x: 40, y: 40 },
      { x: 340, y: 40 },
    ]);
    expect(s().edges.map((e) => `${e.source}>${e.target}`)).toEqual([
      `${dataset}>${retrieval}`,
      `${copies[0]!.id}>${copies[1]!.id}`,
    ]);
    expect(new Set(s().nodes.map((n) => n.id)).size).toBe(4);
    s().undo();
    expect(s().nodes).toHaveLength(2);

    const viewer = createEditorStore(s().graph(), true);
    viewer.getState().select(viewer.getState().nodes[0]!.id);
    viewer.getState().copySelection();
    viewer.getState().paste();
    expect(viewer.getState().nodes).toHaveLength(2);
  });

  it("counts edits for autosave, but not selection", () => {
    const store = createEditorStore(empty, false);
    const id = store.getState().addNode("retrieval", { x: 0, y: 0 });
    const before = store.getState().edits;
    store.getState().select(id);
    store.getState().onNodesChange([{ type: "select", id, selected: true }]);
    expect(store.getState().edits).toBe(before);
    store.getState().updateNode(id, { config: { topK: 3 } });
    expect(store.getState().edits).toBe(before + 1);
    // The same values again are not an edit.
    store.getState().updateNode(id, { config: { topK: 3 } });
    expect(store.getState().edits).toBe(before + 1);
    store.getState().onNodesChange([{ type: "position", id, position: { x: 5, y: 5 } }]);
    expect(store.getState().edits).toBe(before + 2);
    expect(store.getState().graph().nodes[0]!.data.config).toMatchObject({ topK: 3, searchType: "similarity" });
  });

  it("shows the clicked node even when a node brought back by undo still carried its old selection", () => {
    const store = createEditorStore(empty, false);
    const s = () => store.getState();
    const dataset = s().addNode("dataset", { x: 0, y: 0 });
    const response = s().addNode("response", { x: 300, y: 0 });
    s().onNodesChange([{ type: "remove", id: response }]);
    expect(s().selectedId).toBeNull();
    s().undo();
    // Undo restores the graph, not a selection the panel no longer shows.
    expect(s().nodes.filter((n) => n.selected)).toEqual([]);
    s().select(dataset);
    s().clicked(response);
    expect(s().selectedId).toBe(response);
    expect(
      s()
        .nodes.filter((n) => n.selected)
        .map((n) => n.id),
    ).toEqual([response]);
    // A click that adds to a selection leaves it to React Flow.
    s().clicked(dataset, { adding: true });
    expect(s().selectedId).toBe(response);
    expect(s().nodeClicks).toBe(2);
  });

  it("changes nothing when read-only, but still selects", () => {
    const store = createEditorStore(
      {
        nodes: [
          {
            id: "retrieval-1764000000000",
            type: "retrieval",
            position: { x: 0, y: 0 },
            style: { width: 240, height: 80 },
            data: { name: "Search", config: {} },
          },
        ],
        edges: [],
      },
      true,
    );
    const id = "retrieval-1764000000000";
    store.getState().onNodesChange([{ type: "remove", id }]);
    store.getState().onNodesChange([{ type: "position", id, position: { x: 50, y: 50 } }]);
    store.getState().updateNode(id, { name: "Changed" });
    store.getState().deleteNode(id);
    store.getState().onNodesChange([{ type: "select", id, selected: true }]);
    expect(store.getState().nodes).toHaveLength(1);
    expect(store.getState().nodes[0]!.position).toEqual({ x: 0, y: 0 });
    expect(store.getState().nodes[0]!.data.name).toBe("Search");
    expect(store.getState().selectedId).toBe(id);
    expect(store.getState().edits).toBe(0);
  });

  it("auto-layout places nodes left to right in the order they feed each other, undoably", () => {
    const store = createEditorStore(empty, false);
    const s = () => store.getState();
    const a = s().addNode("dataset", { x: 900, y: 0 });
    const b = s().addNode("retrieval", { x: 0, y: 300 });
    s().onConnect({ source: a, target: b, sourceHandle: null, targetHandle: null });
    s().autoLayout();
    const x = (id: string) => s().nodes.find((n) => n.id === id)!.position.x;
    expect(x(a)).toBeLessThan(x(b));
    s().undo();
    expect(x(a)).toBe(900);
  });
});
