"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/states";
import type { ViewerItem } from "./types";

/**
 * A page image with every element's box drawn over it. The overlay's viewBox is the page size in page coordinates
 * (page_layout), so the browser scales each bounding_box onto the image, whatever size the image is shown at.
 */
export const PageCanvas = ({
  src,
  items,
  selected,
  onSelect,
  pageNumber,
}: {
  src: string;
  items: ViewerItem[];
  selected: string | null;
  onSelect: (elementId: string) => void;
  pageNumber: number;
}) => {
  const [state, setState] = useState<{ src: string; status: "loading" | "loaded" | "failed" }>({
    src,
    status: "loading",
  });
  const status = state.src === src ? state.status : "loading";
  const layout = items.find((i) => i.layout)?.layout ?? null;
  const boxed = items.filter((i) => i.box);

  return (
    <figure className="space-y-2">
      {/* The page's own proportions hold the space while the image is drawn, so nothing jumps when it arrives. */}
      <div
        className="relative overflow-hidden rounded-md border border-border bg-white"
        style={layout && status !== "loaded" ? { aspectRatio: `${layout.width} / ${layout.height}` } : undefined}
      >
        {status === "loading" && <Skeleton className="absolute inset-0 rounded-none" />}
        {/* eslint-disable-next-line @next/next/no-img-element -- an authenticated, dynamic PNG; next/image adds nothing */}
        <img
          src={src}
          alt={`Page ${pageNumber}`}
          className={cn("block h-auto w-full", status === "loading" && "absolute inset-0 opacity-0")}
          onLoad={() => setState({ src, status: "loaded" })}
          onError={() => setState({ src, status: "failed" })}
        />
        {layout && status === "loaded" && (
          <svg
            viewBox={`0 0 ${layout.width} ${layout.height}`}
            preserveAspectRatio="none"
            className="absolute inset-0 h-full w-full"
            role="group"
            aria-label={`Element boxes on page ${pageNumber}`}
          >
            {boxed.map((item) => {
              const box = item.box!;
              const active = item.elementId === selected;
              return (
                <rect
                  key={item.elementId}
                  data-element-box={item.elementId}
                  x={box.left}
                  y={box.top}
                  width={Math.max(box.width, 1)}
                  height={Math.max(box.height, 1)}
                  role="button"
                  tabIndex={0}
                  aria-label={`${item.type}: ${item.preview.slice(0, 60)}`}
                  aria-pressed={active}
                  onClick={() => onSelect(item.elementId)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" || e.key === " ") {
                      e.preventDefault();
                      onSelect(item.elementId);
                    }
                  }}
                  className={cn(
                    "cursor-pointer outline-none [vector-effect:non-scaling-stroke] focus-visible:stroke-[3px]",
                    active
                      ? "fill-amber-400/30 stroke-amber-500 stroke-2"
                      : "fill-indigo-500/5 stroke-indigo-500 hover:fill-indigo-500/20",
                  )}
                  style={{ strokeWidth: active ? 2.5 : 1.25 }}
                />
              );
            })}
          </svg>
        )}
      </div>
      <figcaption className="text-xs text-muted-foreground">
        {status === "failed"
          ? "The page image could not be drawn."
          : layout
            ? `${boxed.length} element box${boxed.length === 1 ? "" : "es"} on this page; click one to inspect it.`
            : "These elements carry no page coordinates, so no boxes are drawn."}
      </figcaption>
    </figure>
  );
};
