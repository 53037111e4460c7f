import Graph from "graphology";
import louvain from "graphology-communities-louvain";

/**
 * Communities of the entity graph: Louvain (graphology; no Leiden package is published for it), applied again inside
 * every community larger than MAX_COMMUNITY_SIZE entities, up to MAX_DEPTH levels, so the communities that get a
 * summary are small enough to describe in a few sentences (20 entities: a summary prompt of about 1–2k tokens, the
 * size GraphRAG's leaf communities have on its examples). A community Louvain cannot split further stays a leaf
 * whatever its size. Entities without a relationship belong to no community. The random order Louvain visits nodes
 * in is seeded and the graph is built in the order entities and edges are given (by name, server/graph-rag/store.ts),
 * so the same graph always gives the same communities.
 */

export const MAX_COMMUNITY_SIZE = 20;
export const MAX_DEPTH = 4;

export type Edge = { source: string; target: string; weight: number };
export type Community = { ref: string; level: number; parent: string | null; members: string[]; leaf: boolean };

const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const graphOf = (members: string[], edges: Edge[]) => {
  const graph = new Graph({ type: "undirected", multi: false });
  const inside = new Set(members);
  for (const m of members) graph.addNode(m);
  for (const e of edges) {
    if (!inside.has(e.source) || !inside.has(e.target) || e.source === e.target) continue;
    if (graph.hasEdge(e.source, e.target))
      graph.updateEdgeAttribute(e.source, e.target, "weight", (w: number | undefined) => (w ?? 0) + e.weight);
    else graph.addEdge(e.source, e.target, { weight: e.weight });
  }
  return graph;
};

const split = (members: string[], edges: Edge[]): string[][] => {
  const graph = graphOf(members, edges);
  if (graph.size === 0) return members.map((m) => [m]);
  const assigned = louvain(graph, { getEdgeWeight: "weight", rng: seeded(42) });
  const groups = new Map<number, string[]>();
  for (const m of members) groups.set(assigned[m]!, [...(groups.get(assigned[m]!) ?? []), m]);
  // Largest first; groups of one size keep the order of their first member in `members`.
  return [...groups.values()].sort((a, b) => b.length - a.length);
};

/** The community tree, top level first; refs are `c.<i>.<j>…` paths. Singletons are left out. */
export const detectCommunities = (entities: string[], edges: Edge[]): Community[] => {
  const out: Community[] = [];
  const walk = (parts: string[][], level: number, parent: string | null) => {
    parts.forEach((part, i) => {
      const ref = `${parent ?? "c"}.${i}`;
      const children =
        part.length > MAX_COMMUNITY_SIZE && level + 1 < MAX_DEPTH ? split(part, edges).filter((p) => p.length > 1) : [];
      // Louvain could not split it (one part, or nothing but singletons): it stays a leaf.
      const splits = children.length > 1 || (children.length === 1 && children[0]!.length < part.length);
      out.push({ ref, level, parent, members: [...part].sort(), leaf: !splits });
      if (splits) walk(children, level + 1, ref);
    });
  };
  walk(
    split(entities, edges).filter((p) => p.length > 1),
    0,
    null,
  );
  return out;
};
