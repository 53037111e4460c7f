import type Graph from "graphology";
import type { Attributes } from "graphology-types";
import type { EdgeDisplayData, NodeDisplayData } from "sigma/types";
import { colourOf } from "./colours";
import type { GraphData } from "./types";

/**
 * What the canvas draws: the graphology graph of the shown entities, and sigma reducers that fade what is out of focus
 * (an entity's neighbourhood, or a community's entities).
 */

export const FADED = "#e2e8f0";
const MIN_SIZE = 3;
const MAX_SIZE = 14;

/** Node size from degree: square root, so hubs stand out without hiding the rest. */
const sizeOf = (degree: number, maxDegree: number) =>
  MIN_SIZE + (MAX_SIZE - MIN_SIZE) * Math.sqrt(degree / Math.max(1, maxDegree));

export const fillGraph = (graph: Graph, data: GraphData, colours: Map<string, string>) => {
  const maxDegree = Math.max(1, ...data.entities.map((e) => e.degree));
  for (const e of data.entities)
    graph.addNode(e.id, {
      x: e.x,
      y: e.y,
      label: e.name,
      size: sizeOf(e.degree, maxDegree),
      color: colourOf(colours, e.communityId),
      community: e.communityId,
    });
  for (const r of data.relationships)
    if (!graph.hasEdge(r.source, r.target) && r.source !== r.target)
      graph.addEdge(r.source, r.target, { size: Math.min(3, 0.5 + Math.log1p(r.weight) / 2), color: "#cbd5e1" });
};

/** In focus: one entity (hovered or selected) with its neighbours, else a community's entities, else everything. */
export type Focus = () => { entity: string | null; community: string | null };

export const focusReducers = (graph: Graph, focus: Focus) => {
  const inCommunity = (node: string, community: string) => graph.getNodeAttribute(node, "community") === community;
  return {
    nodeReducer: (node: string, attrs: Attributes): Partial<NodeDisplayData> => {
      const { entity, community } = focus();
      if (!entity && community)
        return inCommunity(node, community)
          ? { ...attrs, zIndex: 1 }
          : { ...attrs, color: FADED, label: "", zIndex: 0 };
      if (!entity || !graph.hasNode(entity)) return attrs;
      if (node === entity) return { ...attrs, highlighted: true, zIndex: 2 };
      if (graph.areNeighbors(node, entity)) return { ...attrs, zIndex: 1, forceLabel: true };
      return { ...attrs, color: FADED, label: "", zIndex: 0 };
    },
    edgeReducer: (edge: string, attrs: Attributes): Partial<EdgeDisplayData> => {
      const { entity, community } = focus();
      if (!entity && community)
        return graph.extremities(edge).every((n) => inCommunity(n, community)) ? attrs : { ...attrs, hidden: true };
      if (!entity || !graph.hasNode(entity)) return attrs;
      return graph.hasExtremity(edge, entity) ? { ...attrs, color: "#64748b" } : { ...attrs, hidden: true };
    },
  };
};
