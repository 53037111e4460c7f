"use client";

import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type FinalConnectionState,
  type IsValidConnection,
} from "@xyflow/react";
import { useEffect, useMemo, useState, useSyncExternalStore, type DragEvent } from "react";
import { isNodeKind } from "@/server/flows/graph.schema";
import { connectionProblem, labelOf } from "./graph-rules";
import { NODE_TYPES } from "./flow-node";
import { dropPosition, LEGIBLE_FIT } from "./placement";
import { useEditor, useEditorStore } from "./store";

export const DRAG_TYPE = "application/x-quarry-node-kind";

const MINIMAP_COLORS: Record<string, string> = {
  dataset: "#10b981",
  chunking: "#10b981",
  llm: "#f59e0b",
  response: "#f59e0b",
};
const MINIMAP_SIZE = { width: 144, height: 96 };

/** The theme the page shows (the toggle puts `light` or `dark` on <html>; neither follows the system). */
const subscribeTheme = (onChange: () => void) => {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
};
const pageTheme = () => {
  const classes = document.documentElement.classList;
  return classes.contains("dark") ? "dark" : classes.contains("light") ? "light" : "system";
};

/** A refused connection's reason is shown for a few seconds. */
const useRefusalTimeout = () => {
  const store = useEditorStore();
  const refusal = useEditor((s) => s.refusal);
  useEffect(() => {
    if (!refusal) return;
    const timer = setTimeout(() => store.getState().refuse(null), 5000);
    return () => clearTimeout(timer);
  }, [refusal, store]);
};

/** Over an empty canvas: what to do first (or, read-only, that there is nothing). */
const EmptyCanvas = ({ readOnly }: { readOnly: boolean }) => (
  <div className="pointer-events-none absolute inset-0 grid place-items-center p-6">
    <div className="max-w-xs rounded-lg border border-dashed border-border bg-card/80 px-5 py-4 text-center">
      <p className="text-sm font-medium">{readOnly ? "This flow has no nodes yet" : "An empty canvas"}</p>
      {!readOnly && (
        <p className="mt-1 text-sm text-muted-foreground">
          Drag a Dataset from the palette to start, then connect it through retrieval to a Response.
        </p>
      )}
    </div>
  </div>
);

/** The canvas: nodes from the palette are dropped here; connections follow the registry's rules. */
export const Canvas = ({ label }: { label: string }) => {
  const store = useEditorStore();
  const nodes = useEditor((s) => s.nodes);
  const edges = useEditor((s) => s.edges);
  const readOnly = useEditor((s) => s.readOnly);
  const onNodesChange = useEditor((s) => s.onNodesChange);
  const onEdgesChange = useEditor((s) => s.onEdgesChange);
  const onConnect = useEditor((s) => s.onConnect);
  const { screenToFlowPosition } = useReactFlow();
  // Fitted on open only when there is something to fit: on an empty canvas React Flow would fit the first node
  // dropped instead, moving it from under the pointer to the centre.
  const [fitOnOpen] = useState(() => store.getState().nodes.length > 0);
  useRefusalTimeout();
  const colorMode = useSyncExternalStore(subscribeTheme, pageTheme, () => "system" as const);

  // React Flow reads a node's accessible name from `ariaLabel`.
  const labelled = useMemo(
    () => nodes.map((n) => ({ ...n, ariaLabel: `${labelOf(n.data.kind)} node ${n.data.name}` })),
    [nodes],
  );

  const isValidConnection: IsValidConnection = (c) => {
    const s = store.getState();
    return connectionProblem(s.nodes, s.edges, c.source, c.target) === null;
  };

  const onConnectEnd = (_: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || !state.toNode || !state.fromNode) return;
    const s = store.getState();
    const [source, target] =
      state.fromHandle?.type === "target" ? [state.toNode.id, state.fromNode.id] : [state.fromNode.id, state.toNode.id];
    s.refuse(connectionProblem(s.nodes, s.edges, source, target));
  };

  const onDragOver = (event: DragEvent) => {
    if (readOnly || !event.dataTransfer.types.includes(DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  };
  const onDrop = (event: DragEvent) => {
    const kind = event.dataTransfer.getData(DRAG_TYPE);
    if (readOnly || !isNodeKind(kind)) return;
    event.preventDefault();
    const at = screenToFlowPosition({ x: event.clientX, y: event.clientY });
    // Centred under the pointer, in flow coordinates whatever the zoom and pan.
    store.getState().addNode(kind, dropPosition(at));
  };

  return (
    <div className="relative h-full" onDragOver={onDragOver} onDrop={onDrop}>
      <ReactFlow
        aria-label={label}
        nodes={labelled}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        onNodeDragStart={() => store.getState().checkpoint()}
        onPaneClick={() => store.getState().select(null)}
        onNodeClick={(event, node) =>
          store.getState().clicked(node.id, { adding: event.shiftKey || event.metaKey || event.ctrlKey })
        }
        isValidConnection={isValidConnection}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        edgesFocusable={!readOnly}
        deleteKeyCode={readOnly ? null : ["Backspace", "Delete"]}
        defaultEdgeOptions={{ animated: false, style: { strokeWidth: 2 } }}
        fitView={fitOnOpen}
        fitViewOptions={LEGIBLE_FIT}
        // A flow wider than the canvas at a legible zoom is scrolled through; Ctrl+wheel or a pinch zooms.
        panOnScroll
        minZoom={0.2}
        maxZoom={1.5}
        colorMode={colorMode}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} position="bottom-left" />
        <MiniMap
          pannable
          zoomable
          ariaLabel="Minimap"
          position="bottom-right"
          nodeColor={(n) => MINIMAP_COLORS[(n.data as { kind: string }).kind] ?? "#0ea5e9"}
          // The size goes through `style`: React Flow draws the map's SVG at style.width × style.height (200 × 150
          // otherwise), so a class that only shrinks the box leaves the map poking out and cut by the canvas.
          style={MINIMAP_SIZE}
        />
      </ReactFlow>
      {nodes.length === 0 && <EmptyCanvas readOnly={readOnly} />}
    </div>
  );
};
