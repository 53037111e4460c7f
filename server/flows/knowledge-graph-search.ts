import type { Prisma } from "../generated/prisma/client";
import { db } from "../db";
import { normaliseName } from "../graph-rag/names";
import { readyIndex, type KnowledgeGraph, type KnowledgeGraphEntity, type Scope } from "./knowledge-graph";
import { SEARCH_LIMIT } from "./knowledge-graph.schema";

/**
 * Search over every entity of a deployed graph-rag node's graph, not only the ones the view draws: names first (the
 * exact name as the graph normalises names, then names starting with the text, then names containing it), then
 * descriptions containing it; the most connected first inside each rank. Case-insensitive; LIKE's wildcards and escape
 * character are escaped here (Prisma passes them through), so any text is literal. Each
 * hit carries its community's title and summary, which the view may not have loaded, and its strongest relationships,
 * so the view can draw a hit it had not drawn next to the entities it had. Every query carries the project.
 */

/** Relationships sent with each hit, strongest first: enough to tie it to the drawn entities it relates to. */
export const HIT_RELATIONSHIPS = 50;

/** An entity as the view draws it, without a position (it may not be drawn), with its community and how it matched. */
export type KnowledgeGraphSearchHit = Omit<KnowledgeGraphEntity, "x" | "y"> & {
  community: { id: string; title: string; summary: string } | null;
  match: "name" | "description";
  relationships: KnowledgeGraph["relationships"];
};

const SELECT = {
  id: true,
  name: true,
  type: true,
  description: true,
  degree: true,
  mentions: true,
  communityId: true,
} as const;
const ORDER = [
  { degree: "desc" as const },
  { mentions: "desc" as const },
  { name: "asc" as const },
  { id: "asc" as const },
];

/** `text` for a LIKE pattern: `%`, `_` and the escape character (backslash) match themselves. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, "\\$&");

const entities = (scope: Scope, where: Prisma.GraphEntityWhereInput, take: number) =>
  db.graphEntity.findMany({ where: { ...scope, ...where }, orderBy: ORDER, take, select: SELECT });

export const searchKnowledgeGraph = async (
  projectId: string,
  flowName: string,
  nodeId: string,
  text: string,
  limit = SEARCH_LIMIT,
): Promise<KnowledgeGraphSearchHit[]> => {
  const { index } = await readyIndex(projectId, flowName, nodeId);
  const q = text.trim();
  if (index?.status !== "ready" || !q) return [];
  const scope: Scope = { projectId, nodeIndexId: index.id };
  const take = Math.min(Math.max(1, limit), SEARCH_LIMIT);
  const like = likeLiteral(q);
  const key = normaliseName(q);
  const inName: Prisma.GraphEntityWhereInput = { name: { contains: like, mode: "insensitive" } };
  const ranks = await Promise.all([
    key ? entities(scope, { key }, 1) : [],
    entities(scope, { name: { startsWith: like, mode: "insensitive" } }, take),
    entities(scope, inName, take),
    entities(scope, { description: { contains: like, mode: "insensitive" }, NOT: inName }, take),
  ]);
  const seen = new Set<string>();
  const hits = ranks
    .flatMap((rows, rank) =>
      rows.map((row) => ({ ...row, match: rank < 3 ? ("name" as const) : ("description" as const) })),
    )
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .slice(0, take);
  const communityIds = [...new Set(hits.flatMap((h) => (h.communityId ? [h.communityId] : [])))];
  const communities = await db.graphCommunity.findMany({
    where: { ...scope, id: { in: communityIds } },
    select: { id: true, title: true, summary: true },
  });
  const byId = new Map(
    communities.map((c) => [c.id, { id: c.id, title: c.title || "Untitled community", summary: c.summary ?? "" }]),
  );
  const relationships = await hitRelationships(
    scope,
    hits.map((h) => h.id),
  );
  return hits.map((h) => ({
    ...h,
    community: (h.communityId && byId.get(h.communityId)) || null,
    relationships: relationships.get(h.id) ?? [],
  }));
};

/** Each hit's strongest relationships (at most HIT_RELATIONSHIPS), keyed by the hit's id. */
const hitRelationships = async (scope: Scope, ids: string[]) => {
  const out = new Map<string, KnowledgeGraph["relationships"]>();
  if (!ids.length) return out;
  const rows = await db.graphRelationship.findMany({
    where: { ...scope, OR: [{ sourceId: { in: ids } }, { targetId: { in: ids } }] },
    orderBy: [{ weight: "desc" }, { id: "asc" }],
    take: HIT_RELATIONSHIPS * ids.length,
    select: { sourceId: true, targetId: true, weight: true, description: true },
  });
  for (const r of rows) {
    const edge = { source: r.sourceId, target: r.targetId, weight: r.weight, description: r.description };
    for (const id of new Set([r.sourceId, r.targetId])) {
      const list = out.get(id);
      if (!ids.includes(id) || (list && list.length >= HIT_RELATIONSHIPS)) continue;
      out.set(id, [...(list ?? []), edge]);
    }
  }
  return out;
};
