"use client";

import { useEffect, useRef, useState, type RefObject } from "react";
import type Sigma from "sigma";
import { FADED, fillGraph, focusReducers } from "./canvas-graph";
import type { GraphData } from "./types";

/**
 * Moves the camera to the selected entity, if it is drawn; returns the name it focused (null while none is) and the
 * function that does it.
 */
const useFocusCamera = (sigma: RefObject<Sigma | null>, selected: RefObject<string | null>) => {
  const [focused, setFocused] = useState<string | null>(null);
  const focus = useRef(() => {
    const renderer = sigma.current;
    const id = selected.current;
    const at = renderer && id && renderer.getGraph().hasNode(id) ? renderer.getNodeDisplayData(id) : undefined;
    if (!renderer || !id || !at) return setFocused(null);
    void renderer
      .getCamera()
      .animate({ x: at.x, y: at.y, ratio: 0.6 }, { duration: 400 })
      .then(() => setFocused(renderer.getGraph().getNodeAttribute(id, "label") as string));
  });
  return [focused, focus] as const;
};

/**
 * sigma's settings. The box may have no size yet when sigma loads (the page still laying out): sigma then draws at
 * 1 px instead of throwing (an uncaught error), and redrawOnResize redraws once the box has its size.
 */
const SETTINGS = { allowInvalidContainer: true, labelRenderedSizeThreshold: 7, labelDensity: 0.5, zIndex: true };

/** Redraws the graph whenever its box changes size; returns what stops it. */
const redrawOnResize = (renderer: Sigma, box: HTMLElement) => {
  const observer = new ResizeObserver(() => renderer.scheduleRefresh());
  observer.observe(box);
  return () => observer.disconnect();
};

/**
 * The graph drawn by sigma.js (WebGL) over a graphology graph, at the positions the server computed. Hovering an
 * entity keeps it and its neighbours in colour and fades the rest; clicking one selects it (and the camera moves to
 * it when it is selected from elsewhere). A highlighted community keeps its entities in colour and fades the rest, as
 * hover does (hover wins while it lasts); the container's data-highlighted says how many entities are in colour, and
 * data-focused names the selected entity once the camera is on it (also after a redraw, e.g. a search hit added).
 * sigma touches the browser's WebGL, so it is loaded in the effect only.
 */
export const GraphCanvas = ({
  data,
  colours,
  selectedId,
  communityId,
  onSelect,
}: {
  data: GraphData;
  colours: Map<string, string>;
  selectedId: string | null;
  communityId: string | null;
  onSelect: (id: string | null) => void;
}) => {
  const container = useRef<HTMLDivElement>(null);
  const sigma = useRef<Sigma | null>(null);
  const selected = useRef(selectedId);
  const community = useRef(communityId);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const [focused, focusCamera] = useFocusCamera(sigma, selected);
  /** After a refresh: how many drawn entities the reducer left in colour (null when nothing is highlighted). */
  const report = useRef(() => {
    const renderer = sigma.current;
    if (!renderer || !community.current) return setHighlighted(null);
    setHighlighted(renderer.getGraph().filterNodes((n) => renderer.getNodeDisplayData(n)?.color !== FADED).length);
  });
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    let disposed = false;
    let hovered: string | null = null;
    let stopRedraw = () => {};
    void (async () => {
      const [{ default: Graph }, { default: SigmaRenderer }] = await Promise.all([
        import("graphology"),
        import("sigma"),
      ]);
      if (disposed || !container.current) return;
      const graph = new Graph({ type: "undirected", multi: false });
      fillGraph(graph, data, colours);
      // A highlighted community wins over the selected entity; hovering wins over both while it lasts.
      const focus = () => ({
        entity: hovered ?? (community.current ? null : selected.current),
        community: community.current,
      });
      const renderer = new SigmaRenderer(graph, container.current, { ...SETTINGS, ...focusReducers(graph, focus) });
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
      stopRedraw = redrawOnResize(renderer, container.current);
      sigma.current = renderer;
      report.current();
      focusCamera.current();
    })();
    return () => {
      disposed = true;
      stopRedraw();
      sigma.current?.kill();
      sigma.current = null;
    };
  }, [data, colours, focusCamera]);

  useEffect(() => {
    community.current = communityId;
    const renderer = sigma.current;
    if (!renderer) return;
    renderer.refresh({ skipIndexation: true });
    report.current();
  }, [communityId]);

  useEffect(() => {
    selected.current = selectedId;
    sigma.current?.refresh({ skipIndexation: true });
    focusCamera.current();
  }, [selectedId, focusCamera]);

  return (
    <div
      ref={container}
      role="img"
      aria-label={`Knowledge graph: ${data.entities.length} entities and ${data.relationships.length} relationships`}
      data-testid="knowledge-graph-canvas"
      data-highlighted={highlighted ?? undefined}
      data-focused={focused ?? undefined}
      className="h-[60vh] min-h-72 w-full max-w-full overflow-hidden rounded-md bg-background sm:h-[34rem]"
    />
  );
};
