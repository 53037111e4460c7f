"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/states";
import type { ViewerItem } from "./types";

export type Refusal = { detail: string; reason: string | null };

const UNDRAWN = "The page image could not be drawn.";

/**
 * Why the image did not load: the route answers a refusal as JSON (`detail` for everyone, `reason` for admins), which
 * an <img> cannot read, so it is asked once more as data.
 */
const readRefusal = async (src: string): Promise<Refusal> => {
  try {
    const res = await fetch(src);
    const body = (await res.json()) as { detail?: unknown; reason?: unknown };
    return {
      detail: typeof body.detail === "string" ? body.detail : UNDRAWN,
      reason: typeof body.reason === "string" ? body.reason : null,
    };
  } catch {
    return { detail: UNDRAWN, reason: null };
  }
};

/** Said in place of the image, with the server's reason behind Details when the caller may see it. */
const PageRefusal = ({ refusal }: { refusal: Refusal | null }) => (
  <div role="status" className="space-y-2 p-6 text-sm text-muted-foreground">
    <p>{refusal?.detail ?? "Finding out why the page image is missing…"}</p>
    {refusal?.reason && (
      <details className="text-xs">
        <summary className="cursor-pointer font-medium hover:text-foreground">Details</summary>
        <p className="mt-1 font-mono break-words whitespace-pre-wrap">{refusal.reason}</p>
      </details>
    )}
  </div>
);

/** Every element's box over the page, in page coordinates; a click selects the element. */
const BoxOverlay = ({
  layout,
  boxed,
  selected,
  onSelect,
  pageNumber,
}: {
  layout: NonNullable<ViewerItem["layout"]>;
  boxed: ViewerItem[];
  selected: string | null;
  onSelect: (elementId: string) => void;
  pageNumber: number;
}) => (
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
);

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
  refused,
}: {
  src: string;
  items: ViewerItem[];
  selected: string | null;
  onSelect: (elementId: string) => void;
  pageNumber: number;
  /** Known before asking (an Office file on a server without LibreOffice): said instead of requesting the image. */
  refused: Refusal | null;
}) => {
  const [state, setState] = useState<{
    src: string;
    status: "loading" | "loaded" | "failed";
    refusal?: Refusal;
  }>({ src, status: "loading" });
  const status = refused ? "failed" : state.src === src ? state.status : "loading";
  const failed = () => {
    setState({ src, status: "failed" });
    void readRefusal(src).then((refusal) =>
      setState((now) => (now.src === src ? { src, status: "failed", refusal } : now)),
    );
  };
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
        {status === "failed" ? (
          <PageRefusal refusal={refused ?? state.refusal ?? null} />
        ) : (
          // eslint-disable-next-line @next/next/no-img-element -- an authenticated, dynamic PNG; next/image adds nothing
          <img
            src={src}
            alt={`Page ${pageNumber}`}
            className={cn("block h-auto w-full", status === "loading" && "absolute inset-0 opacity-0")}
            onLoad={() => setState({ src, status: "loaded" })}
            onError={failed}
          />
        )}
        {layout && status === "loaded" && (
          <BoxOverlay layout={layout} boxed={boxed} selected={selected} onSelect={onSelect} pageNumber={pageNumber} />
        )}
      </div>
      <figcaption className="text-xs text-muted-foreground">
        {status === "failed"
          ? "Without the page image, the elements below carry no boxes to click."
          : layout
            ? `${boxed.length} element box${boxed.length === 1 ? "" : "es"} on this page; click one to inspect it.`
            : "These elements carry no page coordinates, so no boxes are drawn."}
      </figcaption>
    </figure>
  );
};
