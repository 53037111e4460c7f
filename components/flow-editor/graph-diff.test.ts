import { describe, expect, it } from "vitest";
import type { Graph } from "@/server/flows/graph.schema";
import { diffGraphs } from "./graph-diff";

const node = (id: string, type: string, name: string, config: Record<string, unknown> = {}, x = 0) => ({
  id,
  type,
  position: { x, y: 0 },
  style: { width: 240, height: 80 },
  data: { name, config },
});

describe("diffGraphs", () => {
  it("names added, removed and renamed nodes, changed settings and connections, and ignores moves", () => {
    const draft: Graph = {
      nodes: [
        node("d", "dataset", "Docs", { fileNames: ["a.pdf"] }),
        node("r", "retrieval", "Search", { topK: 5, searchType: "hybrid" }),
        node("x", "response", "Answer"),
      ],
      edges: [
        { source: "d", target: "r" },
        { source: "r", target: "x" },
      ],
    };
    const revision: Graph = {
      nodes: [
        node("d", "dataset", "Docs", { fileNames: ["a.pdf"] }, 300),
        node("r", "retrieval", "Find", { topK: 10, searchType: "hybrid", scoreThreshold: 0.2 }),
        node("l", "llm", "Model"),
      ],
      edges: [
        { source: "d", target: "r" },
        { source: "r", target: "l" },
      ],
    };
    expect(diffGraphs(draft, revision)).toEqual([
      { kind: "added", text: "Node Model (llm)" },
      { kind: "removed", text: "Node Answer (response)" },
      { kind: "changed", text: 'Find (retrieval): name "Search" → "Find"' },
      { kind: "changed", text: "Find (retrieval): scoreThreshold unset → 0.2" },
      { kind: "changed", text: "Find (retrieval): topK 5 → 10" },
      { kind: "added", text: "Connection Find → Model" },
      { kind: "removed", text: "Connection Find → Answer" },
    ]);
    expect(diffGraphs(draft, draft)).toEqual([]);
  });
});
