"use client";

import { useReactFlow } from "@xyflow/react";
import { cn } from "@/components/ui/cn";
import type { NodeKind } from "@/server/flows/graph.schema";
import { NODE_KIND_DEFS } from "@/server/flows/node-kinds.schema";
import { DRAG_TYPE } from "./canvas";
import { PALETTE_KINDS } from "./graph-rules";
import { dropPosition } from "./placement";
import { CATEGORY_TONE, NODE_UI, type Category } from "./node-registry";
import { useEditorStore } from "./store";

const CATEGORIES: Category[] = ["Data", "Retrieve", "Generate"];

/** The node kinds of the registry, by category: drag one onto the canvas, or press it to add it in view. */
export const Palette = () => {
  const store = useEditorStore();
  const { screenToFlowPosition } = useReactFlow();
  const addInView = (kind: NodeKind) => {
    const pane = document.querySelector(".react-flow__pane")?.getBoundingClientRect();
    const at = pane
      ? screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 3 })
      : { x: 0, y: 0 };
    // The store moves it clear of nodes already there.
    store.getState().addNode(kind, dropPosition(at));
  };
  return (
    <nav aria-label="Node palette" className="flex h-full flex-col gap-3 overflow-y-auto p-3">
      {CATEGORIES.map((category) => (
        <div key={category}>
          <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{category}</h3>
          <ul className="space-y-1.5">
            {PALETTE_KINDS.filter((k) => NODE_UI[k].category === category).map((kind) => (
              <li key={kind}>
                <button
                  type="button"
                  draggable
                  onDragStart={(e) => {
                    e.dataTransfer.setData(DRAG_TYPE, kind);
                    e.dataTransfer.effectAllowed = "copy";
                  }}
                  onClick={() => addInView(kind)}
                  title={`${NODE_UI[kind].description}. Drag onto the canvas, or press to add.`}
                  aria-label={`Add ${NODE_KIND_DEFS[kind].label}`}
                  className="flex w-full cursor-grab items-center gap-2 rounded-md border border-border bg-card px-2 py-1.5 text-left text-sm shadow-xs hover:border-primary hover:bg-muted active:cursor-grabbing"
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      "grid size-6 shrink-0 place-items-center rounded text-[10px] font-bold",
                      CATEGORY_TONE[category],
                    )}
                  >
                    {NODE_UI[kind].icon}
                  </span>
                  <span className="truncate">{NODE_KIND_DEFS[kind].label}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <p className="mt-auto text-xs text-muted-foreground">
        Drag from a node’s outgoing handle to a node it may feed. Delete removes the selection.
      </p>
    </nav>
  );
};
