"use client";

import { useEffect, useRef } from "react";
import type Sigma from "sigma";
import { NO_COMMUNITY } from "./colours";
import type { GraphData } from "./types";

const FADED = "#e2e8f0";
const MIN_SIZE = 3;
const MAX_SIZE = 14;

/** Node size from degree: square root, so hubs stand out without hiding the rest. */
const sizeOf = (degree: number, maxDegree: number) =>
  MIN_SIZE + (MAX_SIZE - MIN_SIZE) * Math.sqrt(degree / Math.max(1, maxDegree));

/**
 * The graph drawn by sigma.js (WebGL) over a graphology graph, at the positions the server computed. Hovering an
 * entity keeps it and its neighbours in colour and fades the rest; clicking one selects it (and the camera moves to
 * it when it is selected from elsewhere). sigma touches the browser's WebGL, so it is loaded in the effect only.
 */
export const GraphCanvas = ({
  data,
  colours,
  selectedId,
  onSelect,
}: {
  data: GraphData;
  colours: Map<string, string>;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
}) => {
  const container = useRef<HTMLDivElement>(null);
  const sigma = useRef<Sigma | null>(null);
  const selected = useRef(selectedId);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    let disposed = false;
    let hovered: string | null = null;
    void (async () => {
      const [{ default: Graph }, { default: SigmaRenderer }] = await Promise.all([
        import("graphology"),
        import("sigma"),
      ]);
      if (disposed || !container.current) return;
      const graph = new Graph({ type: "undirected", multi: false });
      const maxDegree = Math.max(1, ...data.entities.map((e) => e.degree));
      for (const e of data.entities)
        graph.addNode(e.id, {
          x: e.x,
          y: e.y,
          label: e.name,
          size: sizeOf(e.degree, maxDegree),
          color: e.communityId ? (colours.get(e.communityId) ?? NO_COMMUNITY) : NO_COMMUNITY,
        });
      for (const r of data.relationships)
        if (!graph.hasEdge(r.source, r.target) && r.source !== r.target)
          graph.addEdge(r.source, r.target, { size: Math.min(3, 0.5 + Math.log1p(r.weight) / 2), color: "#cbd5e1" });
      const focus = () => hovered ?? selected.current;
      const renderer = new SigmaRenderer(graph, container.current, {
        labelRenderedSizeThreshold: 7,
        labelDensity: 0.5,
        zIndex: true,
        nodeReducer: (node, attrs) => {
          const f = focus();
          if (!f || !graph.hasNode(f)) return attrs;
          if (node === f) return { ...attrs, highlighted: true, zIndex: 2 };
          if (graph.areNeighbors(node, f)) return { ...attrs, zIndex: 1, forceLabel: true };
          return { ...attrs, color: FADED, label: "", zIndex: 0 };
        },
        edgeReducer: (edge, attrs) => {
          const f = focus();
          if (!f || !graph.hasNode(f)) return attrs;
          return graph.hasExtremity(edge, f) ? { ...attrs, color: "#64748b" } : { ...attrs, hidden: true };
        },
      });
      renderer.on("enterNode", ({ node }) => {
        hovered = node;
        renderer.refresh({ skipIndexation: true });
      });
      renderer.on("leaveNode", () => {
        hovered = null;
        renderer.refresh({ skipIndexation: true });
      });
      renderer.on("clickNode", ({ node }) => select.current(node));
      renderer.on("clickStage", () => select.current(null));
      sigma.current = renderer;
    })();
    return () => {
      disposed = true;
      sigma.current?.kill();
      sigma.current = null;
    };
  }, [data, colours]);

  useEffect(() => {
    selected.current = selectedId;
    const renderer = sigma.current;
    if (!renderer) return;
    renderer.refresh({ skipIndexation: true });
    const at = selectedId ? renderer.getNodeDisplayData(selectedId) : undefined;
    if (at) void renderer.getCamera().animate({ x: at.x, y: at.y, ratio: 0.6 }, { duration: 400 });
  }, [selectedId]);

  return (
    <div
      ref={container}
      role="img"
      aria-label={`Knowledge graph: ${data.entities.length} entities and ${data.relationships.length} relationships`}
      data-testid="knowledge-graph-canvas"
      className="h-[60vh] min-h-72 w-full max-w-full overflow-hidden rounded-md bg-background sm:h-[34rem]"
    />
  );
};
