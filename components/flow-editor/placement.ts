import type { XYPosition } from "@xyflow/react";
import { NODE_SIZE } from "./layout";

/**
 * Where nodes go on the canvas: a dropped node under the pointer, moved clear of the nodes it would cover; and which
 * sides a node's handles sit on, so edges follow the direction the flow is laid out in. Pure.
 */

/**
 * Fitting a flow into view: never below 0.8×, where node text is still readable (a five-node example at full fit
 * was 0.45×, 6 px text); a flow wider than that is panned or scrolled, the minimap shows the rest.
 */
export const LEGIBLE_FIT = { padding: 0.25, minZoom: 0.8, maxZoom: 1 } as const;

type Placed = { position: XYPosition; measured?: { width?: number; height?: number } };

/** Space kept between a nudged node and the one it would have covered. */
const GAP = 24;

const sizeOf = (n: Placed) => ({
  width: n.measured?.width ?? NODE_SIZE.width,
  height: n.measured?.height ?? NODE_SIZE.height,
});

const overlaps = (a: XYPosition, b: Placed) => {
  const size = sizeOf(b);
  return (
    a.x < b.position.x + size.width &&
    a.x + NODE_SIZE.width > b.position.x &&
    a.y < b.position.y + size.height &&
    a.y + NODE_SIZE.height > b.position.y
  );
};

/** The top-left corner that puts a new node's centre under the pointer (a flow position). */
export const dropPosition = (pointer: XYPosition): XYPosition => ({
  x: Math.round(pointer.x - NODE_SIZE.width / 2),
  y: Math.round(pointer.y - NODE_SIZE.height / 2),
});

/**
 * The position itself when no node is there; otherwise moved down below whatever it covers, step by step, until it
 * covers nothing (a user dropping twice at the same spot gets a column, not a stack).
 */
export const freeSpot = (at: XYPosition, nodes: readonly Placed[]): XYPosition => {
  let spot = at;
  // Each step clears one node, so there are at most as many steps as nodes.
  for (let i = 0; i <= nodes.length; i++) {
    const hit = nodes.find((n) => overlaps(spot, n));
    if (!hit) return spot;
    spot = { x: spot.x, y: hit.position.y + sizeOf(hit).height + GAP };
  }
  return spot;
};

export type FlowDirection = "horizontal" | "vertical";

/**
 * The direction the flow reads in, from where its edges point: vertical when they run more downwards than
 * sideways (an auto-layout top to bottom, or a flow imported that way), horizontal otherwise.
 */
export const flowDirection = (
  nodes: readonly (Placed & { id: string })[],
  edges: readonly { source: string; target: string }[],
): FlowDirection => {
  const at = new Map(nodes.map((n) => [n.id, n.position]));
  let across = 0;
  let down = 0;
  for (const e of edges) {
    const a = at.get(e.source);
    const b = at.get(e.target);
    if (!a || !b) continue;
    across += Math.abs(b.x - a.x);
    down += Math.abs(b.y - a.y);
  }
  return down > across ? "vertical" : "horizontal";
};

const SIDES = {
  vertical: { target: "top", source: "bottom" },
  horizontal: { target: "left", source: "right" },
} as const;

/** The sides of a node its incoming and outgoing handles sit on (the same object each time, for store selectors). */
export const handleSides = (direction: FlowDirection) => SIDES[direction];

/** A deploy's step text with node ids (`raptor-rag-1764…: level 1`) replaced by the draft's node names. */
export const stepWithNames = (step: string, nodes: readonly { id: string; name: string }[]): string => {
  // Longest ids first, so an id that is the prefix of another never replaces part of it.
  const named = [...nodes].filter((n) => n.name).sort((a, b) => b.id.length - a.id.length);
  let text = step;
  for (const n of named) text = text.split(n.id).join(n.name);
  return text;
};
