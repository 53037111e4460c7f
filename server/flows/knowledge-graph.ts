import { db } from "../db";
import { AppError } from "../errors";
import { Graph } from "./graph.schema";
import { excerpt } from "./knowledge-graph-excerpt";
import { layoutGroups } from "./knowledge-graph-layout";
import { ENTITY_LIMIT, ENTITY_LIMIT_MAX } from "./knowledge-graph.schema";
import { requireFlow } from "./service";

/**
 * The knowledge graph of a deployed flow's graph-rag node, for the dashboard's graph view: its `limit` most connected
 * entities (at most ENTITY_LIMIT_MAX, with the totals), the relationships among them, their communities with summaries,
 * and a position for each entity (./knowledge-graph-layout.ts). Read from the index the active revision serves
 * (prisma/schema/graph-rag.prisma); every query carries the project id.
 */

/** Relationships drawn among the shown entities, strongest first. */
const EDGE_LIMIT = 2_000;
const CHUNK_LIMIT = 20;

export type KnowledgeGraphState = "ready" | "not-deployed" | "building" | "failed";

export type KnowledgeGraphEntity = {
  id: string;
  name: string;
  type: string;
  description: string;
  degree: number;
  mentions: number;
  communityId: string | null;
  x: number;
  y: number;
};
export type KnowledgeGraphCommunity = { id: string; title: string; summary: string; size: number; shown: number };
export type KnowledgeGraph = {
  flow: string;
  node: { id: string; name: string };
  state: KnowledgeGraphState;
  /** The most entities drawn (what was asked, within the server's bound). */
  limit: number;
  /** building: how far the build got (0-100); failed: why. */
  progress: number;
  error: string | null;
  totals: { entities: number; relationships: number; communities: number };
  entities: KnowledgeGraphEntity[];
  relationships: { source: string; target: string; weight: number; description: string }[];
  communities: KnowledgeGraphCommunity[];
};

export type Scope = { projectId: string; nodeIndexId: string };

/** The graph-rag node of the flow's active revision and its index id (null when the flow is not deployed). */
const deployedNode = async (projectId: string, flowName: string, nodeId: string) => {
  const flow = await requireFlow(projectId, flowName);
  const revision = flow.activeRevisionId
    ? await db.flowRevision.findFirst({
        where: { id: flow.activeRevisionId, projectId },
        select: { snapshot: true, nodeIndexes: true },
      })
    : null;
  // Not deployed: the draft says which nodes exist.
  const graph = Graph.safeParse(revision ? revision.snapshot : flow.graph);
  const node = graph.success ? graph.data.nodes.find((n) => n.id === nodeId) : undefined;
  if (!node || node.type !== "graph-rag")
    throw new AppError("NOT_FOUND", `Flow ${flowName} has no graph-rag node '${nodeId}'`);
  const indexId = revision ? ((revision.nodeIndexes ?? {}) as Record<string, string>)[nodeId] : undefined;
  return { node: { id: node.id, name: node.data.name || node.id }, indexId: indexId ?? null };
};

const emptyGraph = (
  flow: string,
  node: KnowledgeGraph["node"],
  state: KnowledgeGraphState,
  limit: number,
): KnowledgeGraph => ({
  flow,
  node,
  state,
  limit,
  progress: 0,
  error: null,
  totals: { entities: 0, relationships: 0, communities: 0 },
  entities: [],
  relationships: [],
  communities: [],
});

/** The node and its graph index (null when the flow is not deployed); NOT_FOUND when the flow has no such node. */
export const readyIndex = async (projectId: string, flowName: string, nodeId: string) => {
  const { node, indexId } = await deployedNode(projectId, flowName, nodeId);
  const index = indexId
    ? await db.flowNodeIndex.findFirst({
        where: { id: indexId, projectId, kind: "graph-rag" },
        select: { id: true, status: true, progress: true, error: true },
      })
    : null;
  return { node, index };
};

export const knowledgeGraph = async (
  projectId: string,
  flowName: string,
  nodeId: string,
  asked = ENTITY_LIMIT,
): Promise<KnowledgeGraph> => {
  const limit = Math.min(Math.max(1, Math.floor(asked)), ENTITY_LIMIT_MAX);
  const { node, index } = await readyIndex(projectId, flowName, nodeId);
  if (!index) return emptyGraph(flowName, node, "not-deployed", limit);
  if (index.status !== "ready")
    return {
      ...emptyGraph(flowName, node, index.status === "failed" ? "failed" : "building", limit),
      progress: index.progress,
      error: index.status === "failed" ? "The graph could not be built; deploy the flow again" : null,
    };
  const scope: Scope = { projectId, nodeIndexId: index.id };
  const [entityTotal, relationshipTotal, rows] = await Promise.all([
    db.graphEntity.count({ where: scope }),
    db.graphRelationship.count({ where: scope }),
    db.graphEntity.findMany({
      where: scope,
      orderBy: [{ degree: "desc" }, { mentions: "desc" }, { name: "asc" }, { id: "asc" }],
      take: limit,
      select: {
        id: true,
        name: true,
        type: true,
        description: true,
        degree: true,
        mentions: true,
        communityId: true,
      },
    }),
  ]);
  const ids = rows.map((e) => e.id);
  const [relationships, communities] = await Promise.all([
    db.graphRelationship.findMany({
      where: { ...scope, sourceId: { in: ids }, targetId: { in: ids } },
      orderBy: [{ weight: "desc" }, { id: "asc" }],
      take: EDGE_LIMIT,
      select: { sourceId: true, targetId: true, weight: true, description: true },
    }),
    db.graphCommunity.findMany({
      where: { ...scope, id: { in: [...new Set(rows.flatMap((e) => (e.communityId ? [e.communityId] : [])))] } },
      select: { id: true, title: true, summary: true, entityIds: true },
    }),
  ]);
  // Summarised leaves only: a total over every level would count each entity several times.
  const communityTotal = await db.graphCommunity.count({
    where: { ...scope, OR: [{ summary: null }, { summary: { not: "" } }] },
  });
  const groups = new Map<string, string[]>();
  for (const e of rows) {
    const key = e.communityId ?? "";
    groups.set(key, [...(groups.get(key) ?? []), e.id]);
  }
  const placed = layoutGroups([...groups.values()]);
  const shown = (id: string) => groups.get(id)?.length ?? 0;
  return {
    flow: flowName,
    node,
    state: "ready",
    limit,
    progress: 100,
    error: null,
    totals: { entities: entityTotal, relationships: relationshipTotal, communities: communityTotal },
    entities: rows.map((e) => ({ ...e, ...placed.get(e.id)! })),
    relationships: relationships.map((r) => ({
      source: r.sourceId,
      target: r.targetId,
      weight: r.weight,
      description: r.description,
    })),
    communities: communities
      .map((c) => ({
        id: c.id,
        title: c.title || "Untitled community",
        summary: c.summary ?? "",
        size: c.entityIds.length,
        shown: shown(c.id),
      }))
      .sort((a, b) => b.shown - a.shown || b.size - a.size || a.title.localeCompare(b.title)),
  };
};

export type KnowledgeGraphChunk = { id: string; source: string; position: number; count: number; text: string };

/** The chunks an entity of the graph comes from (most mentions first), with the name of each one's document. */
export const knowledgeGraphEntityChunks = async (
  projectId: string,
  flowName: string,
  nodeId: string,
  entityId: string,
): Promise<KnowledgeGraphChunk[]> => {
  const { index } = await readyIndex(projectId, flowName, nodeId);
  const entity =
    index?.status === "ready"
      ? await db.graphEntity.findFirst({
          where: { id: entityId, projectId, nodeIndexId: index.id },
          select: { id: true, name: true },
        })
      : null;
  if (!index || !entity) throw new AppError("NOT_FOUND", "No such entity in this graph");
  const mentions = await db.graphMention.findMany({
    where: { projectId, nodeIndexId: index.id, entityId },
    orderBy: [{ count: "desc" }, { chunkId: "asc" }],
    take: CHUNK_LIMIT,
    select: { chunkId: true, count: true },
  });
  const chunks = await db.chunk.findMany({
    where: { projectId, id: { in: mentions.map((m) => m.chunkId) } },
    select: { id: true, position: true, text: true, source: { select: { fileName: true } } },
  });
  const byId = new Map(chunks.map((c) => [c.id, c]));
  return mentions
    .flatMap((m) => {
      const c = byId.get(m.chunkId);
      if (!c) return [];
      return [
        {
          id: c.id,
          source: c.source.fileName,
          position: c.position,
          count: m.count,
          text: excerpt(c.text, entity.name),
        },
      ];
    })
    .sort((a, b) => b.count - a.count || a.source.localeCompare(b.source) || a.position - b.position);
};
