import { describe, expect, it } from "vitest";
import type { Graph } from "./graph.schema";
import { parseNodeConfig } from "./node-kinds";
import { fuseRankings, rewriteQuery } from "./smart-rag";
import { markChanged } from "./node-state";
import { topologicalOrder, validateGraph, type GraphContext } from "./validate-graph";

const node = (type: string, n: number, config: Record<string, unknown> = {}) => ({
  id: `${type}-${String(1764000000000 + n)}`,
  type,
  position: { x: 0, y: 0 },
  style: { height: 80, width: 240 },
  data: { name: type, config },
});
const FILE = "3f0e8a52-8a4c-4e43-9a57-0d8f3f7d1a01";
const rag = (): Graph => ({
  nodes: [node("dataset", 1, { files: ["a.txt"], fileIds: [FILE] }), node("retrieval", 2), node("response", 3)],
  edges: [
    { source: "dataset-1764000000001", target: "retrieval-1764000000002" },
    { source: "retrieval-1764000000002", target: "response-1764000000003" },
  ],
});
const context: GraphContext = {
  sourceStatus: (id: string) => (id === FILE ? "Completed" : undefined),
  promptIds: new Set(["default_retrieval_prompt"]),
};
const firstError = (graph: unknown, stage: "save" | "run" = "run", ctx: GraphContext = context) => {
  const check = validateGraph(graph, stage, ctx);
  return check.ok ? null : check.errors[0]!.message;
};

describe("validateGraph", () => {
  it("accepts a connected RAG graph", () => expect(validateGraph(rag(), "run", context)).toEqual({ ok: true }));

  it("refuses unknown kinds, duplicate ids, bad ids, dangling edges and cycles", () => {
    const g = rag();
    g.nodes.push({ ...node("retrieval", 2) });
    expect(firstError(g, "save")).toBe("Duplicate node id 'retrieval-1764000000002'");
    expect(firstError({ ...rag(), nodes: [...rag().nodes, node("magic", 9)] }, "save")).toBe(
      "Unknown node type 'magic'",
    );
    expect(firstError({ ...rag(), nodes: [{ ...node("llm", 5), id: "llm-12" }] }, "save")).toBe(
      "Node id 'llm-12' must be 'llm-' followed by 13 digits",
    );
    expect(
      firstError({ ...rag(), edges: [...rag().edges, { source: "x", target: "response-1764000000003" }] }, "save"),
    ).toBe("Edge x -> response-1764000000003 joins a node that does not exist");
    const cyclic: Graph = {
      nodes: [node("retrieval", 1), node("reranking", 2), node("llm", 3)],
      edges: [],
    };
    expect(validateGraph(cyclic, "save").ok).toBe(true);
    const rr = {
      nodes: [node("reranking", 1), node("reranking", 2)],
      edges: [{ source: "reranking-1764000000001", target: "reranking-1764000000002" }],
    };
    expect(firstError(rr, "save")).toBe(
      "A reranking node cannot feed a reranking node (reranking-1764000000001 -> reranking-1764000000002)",
    );
  });

  it("orders nodes after their upstream nodes, and finds cycles", () => {
    const e = (source: string, target: string) => ({ source, target });
    expect(topologicalOrder(["c", "b", "a"], [e("a", "b"), e("b", "c")])).toEqual(["a", "b", "c"]);
    expect(topologicalOrder(["a", "b"], [e("a", "b"), e("b", "a")])).toBeNull();
  });

  it("needs a reachable response node, files that are Completed, known prompts and runnable kinds", () => {
    const noResponse = { nodes: rag().nodes.slice(0, 2), edges: rag().edges.slice(0, 1) };
    expect(validateGraph(noResponse, "run", context)).toMatchObject({ ok: false, noResponseNode: true });
    expect(validateGraph(noResponse, "save", context)).toEqual({ ok: true });
    const detached = { ...rag(), edges: rag().edges.slice(0, 1) };
    expect(firstError(detached)).toBe("the response node is not connected to a dataset node");
    const processing: GraphContext = { sourceStatus: () => "Processing", promptIds: context.promptIds };
    expect(firstError(rag(), "run", processing)).toBe(
      "files of dataset node 'dataset-1764000000001' are not Completed: a.txt (Processing)",
    );
    const empty = rag();
    empty.nodes[0]!.data.config = {};
    expect(firstError(empty)).toBe("dataset node 'dataset-1764000000001' has no files");
    const prompt = rag();
    prompt.nodes[2]!.data.config = { promptId: "gone" };
    expect(firstError(prompt)).toBe("Prompt 'gone' not found");
    const graphRag = rag();
    graphRag.nodes[1] = node("graph-rag", 2);
    graphRag.edges = [
      { source: "dataset-1764000000001", target: "graph-rag-1764000000002" },
      { source: "graph-rag-1764000000002", target: "response-1764000000003" },
    ];
    expect(validateGraph(graphRag, "run", context).ok).toBe(true);
  });

  it("checks each node's config with the contract's ranges", () => {
    const g = rag();
    g.nodes[1]!.data.config = { topK: 101 };
    expect(firstError(g, "save")).toBe("Node 'retrieval-1764000000002': topK must be an integer between 1 and 100");
  });
});

describe("node kinds", () => {
  it("fill the contract's defaults (§2.10)", () => {
    expect(parseNodeConfig("chunking", {})).toEqual({
      embeddingModel: "text-embedding-3-small",
      chunkingSplitter: "character",
      chunkSize: 1000,
      chunkOverlap: 200,
      chunkSeparator: "\n\n",
      splitLevel: 0,
      elementsToRemove: [],
    });
    expect(parseNodeConfig("retrieval", {})).toEqual({
      searchType: "similarity",
      topK: 10,
      scoreThreshold: 0,
      retrievalQuery: null,
    });
    expect(parseNodeConfig("raptor-rag", {})).toEqual({ topK: 10, max_level: 3 });
    expect(parseNodeConfig("smart-rag", {})).toEqual({ topK: 5 });
    expect(parseNodeConfig("llm", {})).toEqual({
      model: "gpt-4o-mini",
      promptId: "default_retrieval_prompt",
      temperature: 0,
    });
  });

  it("refuse values out of range with the contract's sentences (§7.4)", () => {
    const msg = (kind: Parameters<typeof parseNodeConfig>[0], config: Record<string, unknown>) => {
      try {
        parseNodeConfig(kind, config);
        return null;
      } catch (e) {
        return (e as { issues: { message: string }[] }).issues[0]!.message;
      }
    };
    expect(msg("raptor-rag", { max_level: 9 })).toBe("max_level must be between 2 and 8");
    expect(msg("raptor-rag", { topK: 0 })).toBe("topK must be between 1 and 100 or null");
    expect(msg("raptor-rag", { topK: null })).toBeNull();
    expect(msg("llm", { temperature: 2.5 })).toBe("temperature must be between 0.0 and 2.0");
    expect(msg("smart-rag", { topK: "5" })).toBe("topK must be a positive integer or null");
    expect(msg("chunking", { chunkingSplitter: "words" })).toBe(
      "Invalid chunkingSplitter 'words'. Valid values: character, token, semantic, title, element",
    );
  });
});

describe("flags", () => {
  it("a config change marks the node and everything downstream", () => {
    const states = markChanged({}, rag(), "retrieval-1764000000002");
    expect(states).toEqual({
      "retrieval-1764000000002": { updated: false, updatedMetrics: false },
      "response-1764000000003": { updated: false, waiting: true },
    });
  });
});

describe("smart-rag", () => {
  it("rewrites a question into the question, its content words and its sub-questions", () => {
    expect(rewriteQuery("How heavy are the granite blocks and what is basalt crushed for?")).toEqual([
      "How heavy are the granite blocks and what is basalt crushed for?",
      "heavy granite blocks basalt crushed",
      "How heavy are the granite blocks",
      "what is basalt crushed for",
    ]);
  });

  it("fuses rankings so a passage found by several searches rises", () => {
    const c = (id: string) => ({ chunkId: id }) as Parameters<typeof fuseRankings>[0][0][0];
    expect(
      fuseRankings([
        [c("a"), c("b")],
        [c("b"), c("c")],
      ]).map((x) => x.chunkId),
    ).toEqual(["b", "a", "c"]);
  });
});
