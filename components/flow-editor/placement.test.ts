import { describe, expect, it } from "vitest";
import { layoutPositions } from "./layout";
import { dropPosition, flowDirection, freeSpot, handleSides, stepWithNames } from "./placement";

const node = (id: string, x: number, y: number) => ({ id, position: { x, y } });

describe("placing a dropped node", () => {
  it("centres it under the pointer", () => {
    expect(dropPosition({ x: 500, y: 300 })).toEqual({ x: 380, y: 252 });
  });

  it("keeps the spot when nothing is there", () => {
    expect(freeSpot({ x: 0, y: 0 }, [node("a", 300, 0)])).toEqual({ x: 0, y: 0 });
  });

  it("moves it below a node it would cover, and below the next one too", () => {
    const a = node("a", 0, 0);
    const first = freeSpot({ x: 10, y: 10 }, [a]);
    expect(first).toEqual({ x: 10, y: 120 });
    const b = node("b", first.x, first.y);
    expect(freeSpot({ x: 10, y: 10 }, [a, b])).toEqual({ x: 10, y: 240 });
  });

  it("uses the measured size of the node in the way", () => {
    const tall = { ...node("a", 0, 0), measured: { width: 240, height: 200 } };
    expect(freeSpot({ x: 0, y: 150 }, [tall])).toEqual({ x: 0, y: 224 });
  });
});

describe("handles follow the layout", () => {
  const edges = [
    { source: "a", target: "b" },
    { source: "b", target: "c" },
  ];
  const ids = ["a", "b", "c"].map((id) => ({ id }));

  it("sit top and bottom after a top-to-bottom layout, left and right after a left-to-right one", () => {
    const vertical = layoutPositions(ids, edges, "vertical");
    const nodes = ids.map((n) => node(n.id, vertical[n.id]!.x, vertical[n.id]!.y));
    expect(flowDirection(nodes, edges)).toBe("vertical");
    expect(handleSides("vertical")).toEqual({ target: "top", source: "bottom" });

    const horizontal = layoutPositions(ids, edges);
    const across = ids.map((n) => node(n.id, horizontal[n.id]!.x, horizontal[n.id]!.y));
    expect(flowDirection(across, edges)).toBe("horizontal");
    expect(handleSides("horizontal")).toEqual({ target: "left", source: "right" });
  });

  it("reads a flow without edges as horizontal", () => {
    expect(flowDirection([node("a", 0, 0), node("b", 0, 500)], [])).toBe("horizontal");
  });
});

describe("deploy step text", () => {
  it("names nodes by their names, not their ids", () => {
    const nodes = [
      { id: "raptor-rag-1764000000043", name: "Summary tree" },
      { id: "chunking-1764000000042", name: "Chunks" },
    ];
    expect(stepWithNames("raptor-rag-1764000000043: level 1", nodes)).toBe("Summary tree: level 1");
    expect(stepWithNames("chunking chunking-1764000000042", nodes)).toBe("chunking Chunks");
    expect(stepWithNames("validate", nodes)).toBe("validate");
  });

  it("replaces the longer id when one id begins another", () => {
    const nodes = [
      { id: "llm-1", name: "First" },
      { id: "llm-12", name: "Twelfth" },
    ];
    expect(stepWithNames("llm-12: answering", nodes)).toBe("Twelfth: answering");
  });

  it("keeps an id whose node has no name", () => {
    expect(stepWithNames("graph-rag-1: entities", [{ id: "graph-rag-1", name: "" }])).toBe("graph-rag-1: entities");
  });
});
