import { describe, expect, it } from "vitest";
import plainRag from "../../examples/flows/plain-rag.json";
import { Graph } from "@/server/flows/graph.schema";
// The test checks the editor's rules against the server's own graph check, so it reaches past the client boundary.
// eslint-disable-next-line no-restricted-imports
import { validateGraph } from "@/server/flows/validate-graph";
import { toEditorEdges, toEditorNodes, toGraph, type EditorNode } from "./graph-mapping";
import { connectionProblem, newNodeOf } from "./graph-rules";
import { emptyStack, record, redo, undo } from "./history";
import { layoutPositions } from "./layout";

const graph = Graph.parse(plainRag);
const node = (id: string, kind: string) => ({ id, data: { kind } });

describe("graph ↔ React Flow", () => {
  it("round-trips the stored graph and never carries React Flow's own fields back", () => {
    const nodes = toEditorNodes(graph).map((n): EditorNode => ({
      ...n,
      selected: true,
      dragging: false,
      measured: { width: 240, height: 90 },
    }));
    const back = toGraph(nodes, toEditorEdges(graph));
    expect(back).toEqual(graph);
    expect(JSON.stringify(back)).not.toMatch(/selected|dragging|measured/);
  });

  it("stores whole-pixel positions", () => {
    const [first] = toEditorNodes(graph);
    const back = toGraph([{ ...first!, position: { x: 10.6, y: -3.2 } }], []);
    expect(back.nodes[0]!.position).toEqual({ x: 11, y: -3 });
  });
});

describe("connection rules follow the node-kind registry", () => {
  const nodes = [
    node("dataset-1", "dataset"),
    node("chunking-1", "chunking"),
    node("retrieval-1", "retrieval"),
    node("llm-1", "llm"),
    node("response-1", "response"),
  ];

  it("allows what the registry allows", () => {
    expect(connectionProblem(nodes, [], "dataset-1", "chunking-1")).toBeNull();
    expect(connectionProblem(nodes, [], "chunking-1", "retrieval-1")).toBeNull();
    expect(connectionProblem(nodes, [], "retrieval-1", "llm-1")).toBeNull();
    expect(connectionProblem(nodes, [], "llm-1", "response-1")).toBeNull();
  });

  it("refuses the rest, saying why", () => {
    expect(connectionProblem(nodes, [], "dataset-1", "response-1")).toBe("A Dataset node cannot feed a Response node");
    expect(connectionProblem(nodes, [], "response-1", "dataset-1")).toBe("A Response node cannot feed a Dataset node");
    expect(connectionProblem(nodes, [], "llm-1", "llm-1")).toBe("A node cannot feed itself");
    expect(connectionProblem(nodes, [{ source: "dataset-1", target: "chunking-1" }], "dataset-1", "chunking-1")).toBe(
      "These nodes are already connected",
    );
    expect(connectionProblem(nodes, [], "dataset-1", null)).toBe("Connect two nodes");
  });

  it("refuses back edges: the registry's kinds only feed later kinds", () => {
    const rag = [node("retrieval-1", "retrieval"), node("reranking-1", "reranking")];
    const edges = [{ source: "retrieval-1", target: "reranking-1" }];
    expect(connectionProblem(rag, edges, "reranking-1", "retrieval-1")).toBe(
      "A Reranking node cannot feed a Retrieval node",
    );
  });

  it("agrees with the server's graph check on every pair of kinds", () => {
    const kinds = ["dataset", "chunking", "retrieval", "reranking", "smart-rag", "llm", "response"];
    for (const from of kinds) {
      for (const to of kinds) {
        if (from === to) continue;
        const a = newNodeOf(from as never, [], 1_700_000_000_000);
        const b = newNodeOf(to as never, [], 1_700_000_000_001);
        const g = {
          nodes: [a, b].map((n) => ({ id: n.id, type: n.kind, data: { name: n.name, config: n.config } })),
          edges: [{ source: a.id, target: b.id }],
        };
        const client = connectionProblem([node(a.id, from), node(b.id, to)], [], a.id, b.id) === null;
        expect(validateGraph(g, "save").ok, `${from} -> ${to}`).toBe(client);
      }
    }
  });
});

describe("new nodes", () => {
  it("get the registry's defaults and an id the server accepts, unique on the canvas", () => {
    const a = newNodeOf("retrieval", [], 1_764_000_000_000);
    expect(a).toMatchObject({ id: "retrieval-1764000000000", name: "Retrieval" });
    expect(a.config).toEqual({ searchType: "similarity", topK: 10, scoreThreshold: 0, retrievalQuery: null });
    const b = newNodeOf("retrieval", [{ id: a.id }], 1_764_000_000_000);
    expect(b.id).toBe("retrieval-1764000000001");
    expect(b.name).toBe("Retrieval 2");
  });
});

describe("undo stack", () => {
  it("undoes and redoes in order, and a new change drops the redo side", () => {
    let stack = emptyStack<number>();
    stack = record(stack, 1); // 1 → 2
    stack = record(stack, 2); // 2 → 3
    const u1 = undo(stack, 3)!;
    expect(u1.value).toBe(2);
    const u2 = undo(u1.stack, 2)!;
    expect(u2.value).toBe(1);
    expect(undo(u2.stack, 1)).toBeNull();
    const r1 = redo(u2.stack, 1)!;
    expect(r1.value).toBe(2);
    const changed = record(r1.stack, 2);
    expect(redo(changed, 5)).toBeNull();
    expect(changed.past).toEqual([1, 2]);
  });

  it("keeps at most the limit", () => {
    let stack = emptyStack<number>();
    for (let i = 0; i < 10; i++) stack = record(stack, i, 3);
    expect(stack.past).toEqual([7, 8, 9]);
  });
});

describe("auto-layout", () => {
  it("places every node after the nodes that feed it, without overlaps", () => {
    const p = layoutPositions(graph.nodes, graph.edges);
    const [d, r, a] = graph.nodes.map((n) => p[n.id]!.x);
    expect(d).toBeLessThan(r!);
    expect(r).toBeLessThan(a!);
    const two = layoutPositions(
      [{ id: "a" }, { id: "b" }, { id: "c" }],
      [
        { source: "a", target: "b" },
        { source: "a", target: "c" },
      ],
    );
    expect(two.b!.x).toBe(two.c!.x);
    expect(Math.abs(two.b!.y - two.c!.y)).toBeGreaterThanOrEqual(96);
  });
});
