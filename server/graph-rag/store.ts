import { randomUUID } from "node:crypto";
import { Prisma } from "../generated/prisma/client";
import { db } from "../db";
import { toVectorLiteral } from "../retrieval/embedding-index";
import type { Community } from "./communities";
import type { MergedEntity, MergedRelationship } from "./merge";
import type { ChunkExtraction } from "./types";

/** The graph tables of a node index (prisma/schema/graph-rag.prisma). Every query carries the project id. */

export type Scope = { projectId: string; indexId: string };

/**
 * The index's chunks in a fixed order (its chunk sets in order, then position), from `offset`. RAPTOR summaries
 * stored in the same chunk sets (node_index_id set) are not the documents' text and are left out.
 */
export const chunksOf = (s: Scope, chunkSetIds: string[], offset: number, limit: number) =>
  db.$queryRaw<{ id: string; text: string }[]>`
    SELECT id, text FROM chunks
    WHERE project_id = ${s.projectId}::uuid AND chunk_set_id = ANY(${chunkSetIds}::uuid[]) AND node_index_id IS NULL
    ORDER BY array_position(${chunkSetIds}::uuid[], chunk_set_id), position, id
    OFFSET ${offset} LIMIT ${limit}`;

export const chunkCount = (s: Scope, chunkSetIds: string[]) =>
  db.chunk.count({ where: { projectId: s.projectId, chunkSetId: { in: chunkSetIds }, nodeIndexId: null } });

export const extractedChunkIds = async (s: Scope, chunkIds: string[]) =>
  new Set(
    (
      await db.graphExtraction.findMany({
        where: { projectId: s.projectId, nodeIndexId: s.indexId, chunkId: { in: chunkIds } },
        select: { chunkId: true },
      })
    ).map((r) => r.chunkId),
  );

/** Keyed by (index, chunk): a redone batch writes the same rows again. */
export const saveExtraction = (s: Scope, batch: number, chunkId: string, extraction: ChunkExtraction) =>
  db.graphExtraction.upsert({
    where: { nodeIndexId_chunkId: { nodeIndexId: s.indexId, chunkId } },
    create: { projectId: s.projectId, nodeIndexId: s.indexId, batch, chunkId, ...extraction },
    update: { batch, ...extraction },
  });

/** Every extraction of the index, in chunk order. */
export const allExtractions = async (s: Scope, chunkSetIds: string[]) => {
  const rows = await db.$queryRaw<{ chunk_id: string; entities: unknown; relationships: unknown }[]>`
    SELECT g.chunk_id, g.entities, g.relationships FROM graph_extractions g
    JOIN chunks c ON c.id = g.chunk_id AND c.project_id = ${s.projectId}::uuid
    WHERE g.project_id = ${s.projectId}::uuid AND g.node_index_id = ${s.indexId}::uuid
    ORDER BY array_position(${chunkSetIds}::uuid[], c.chunk_set_id), c.position, c.id`;
  return rows.map((r) => ({
    chunkId: r.chunk_id,
    extraction: { entities: r.entities, relationships: r.relationships } as ChunkExtraction,
  }));
};

const where = (s: Scope) => ({ projectId: s.projectId, nodeIndexId: s.indexId });

/** Rows per INSERT: large enough to be quick, small enough that other queries get their turn in between. */
const WRITE_BATCH = 5_000;

const inBatches = async <T>(rows: T[], write: (batch: T[]) => Promise<unknown>) => {
  for (let i = 0; i < rows.length; i += WRITE_BATCH) await write(rows.slice(i, i + WRITE_BATCH));
};

/**
 * Replaces the merged graph of the index (entities, relationships, mentions). Not one transaction: at corpus size
 * (SciFact: 86k entities, 660k relationships) a single transaction held the embedded Postgres — whose connections share
 * one session — for over 20 minutes. Batched `unnest` inserts take seconds and let other queries in between; the
 * graph is read only once its index is ready, and a step redone after a crash starts by deleting what it wrote.
 */
export const writeGraph = async (s: Scope, entities: MergedEntity[], relationships: MergedRelationship[]) => {
  const ids = new Map(entities.map((e) => [e.key, randomUUID()]));
  const degree = new Map<string, number>();
  for (const r of relationships) for (const k of [r.source, r.target]) degree.set(k, (degree.get(k) ?? 0) + 1);
  for (const table of ["graph_communities", "graph_relationships", "graph_mentions", "graph_entities"])
    await db.$executeRaw`
      DELETE FROM ${Prisma.raw(table)} WHERE project_id = ${s.projectId}::uuid AND node_index_id = ${s.indexId}::uuid`;
  await inBatches(
    entities,
    (batch) => db.$executeRaw`
    INSERT INTO graph_entities (id, project_id, node_index_id, key, name, type, description, mentions, degree)
    SELECT id, ${s.projectId}::uuid, ${s.indexId}::uuid, key, name, type, description, mentions, degree
    FROM unnest(${batch.map((e) => ids.get(e.key)!)}::uuid[], ${batch.map((e) => e.key)}::text[],
      ${batch.map((e) => e.name)}::text[], ${batch.map((e) => e.type)}::text[],
      ${batch.map((e) => e.description)}::text[], ${batch.map((e) => e.chunks.size)}::int[],
      ${batch.map((e) => degree.get(e.key) ?? 0)}::int[]) AS v(id, key, name, type, description, mentions, degree)`,
  );
  await inBatches(
    relationships,
    (batch) => db.$executeRaw`
    INSERT INTO graph_relationships (id, project_id, node_index_id, source_id, target_id, description, weight)
    SELECT gen_random_uuid(), ${s.projectId}::uuid, ${s.indexId}::uuid, source_id, target_id, description, weight
    FROM unnest(${batch.map((r) => ids.get(r.source)!)}::uuid[], ${batch.map((r) => ids.get(r.target)!)}::uuid[],
      ${batch.map((r) => r.description)}::text[], ${batch.map((r) => r.weight)}::float8[])
      AS v(source_id, target_id, description, weight)`,
  );
  const mentions = entities.flatMap((e) =>
    [...e.chunks].map(([chunkId, count]) => ({ id: ids.get(e.key)!, chunkId, count })),
  );
  await inBatches(
    mentions,
    (batch) => db.$executeRaw`
    INSERT INTO graph_mentions (project_id, node_index_id, entity_id, chunk_id, count)
    SELECT ${s.projectId}::uuid, ${s.indexId}::uuid, entity_id, chunk_id, count
    FROM unnest(${batch.map((m) => m.id)}::uuid[], ${batch.map((m) => m.chunkId)}::uuid[], ${batch.map((m) => m.count)}::int[])
      AS v(entity_id, chunk_id, count)`,
  );
};

/** Entities not yet embedded with `model`, at most `limit`. */
export const unembeddedEntities = (s: Scope, model: string, limit: number) =>
  db.$queryRaw<{ id: string; name: string; description: string }[]>`
    SELECT id, name, description FROM graph_entities
    WHERE project_id = ${s.projectId}::uuid AND node_index_id = ${s.indexId}::uuid
      AND embedding_model IS DISTINCT FROM ${model}
    ORDER BY id LIMIT ${limit}`;

export const storeVectors = async (
  s: Scope,
  table: "graph_entities" | "graph_communities",
  model: string,
  rows: { id: string; vector: number[] }[],
) => {
  if (!rows.length) return;
  await db.$executeRaw`
    UPDATE ${Prisma.raw(table)} t SET embedding = v.e::vector, embedding_model = ${model}
    FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => toVectorLiteral(r.vector))}::text[]) AS v(id, e)
    WHERE t.id = v.id AND t.project_id = ${s.projectId}::uuid AND t.node_index_id = ${s.indexId}::uuid`;
};

/** The entities of these ids and the relationships between them (a summarise step's communities, not the graph). */
export const edgesAmong = async (s: Scope, entityIds: string[]) => ({
  entities: await db.graphEntity.findMany({
    where: { ...where(s), id: { in: entityIds } },
    select: { id: true, name: true, type: true, description: true, degree: true },
    orderBy: { id: "asc" },
  }),
  relationships: await db.graphRelationship.findMany({
    where: { ...where(s), sourceId: { in: entityIds }, targetId: { in: entityIds } },
    select: { sourceId: true, targetId: true, description: true, weight: true },
  }),
});

/** What community detection needs of the whole graph: ids and weighted edges, nothing else. */
/**
 * The graph for community detection, in an order fixed by the entities' names (their normalised keys), not by their
 * random ids: Louvain's result depends on the order it meets nodes and edges, so the same document must give them in
 * the same order on every build.
 */
export const graphEdges = async (s: Scope) => ({
  entities: (
    await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM graph_entities
      WHERE project_id = ${s.projectId}::uuid AND node_index_id = ${s.indexId}::uuid ORDER BY key`
  ).map((e) => e.id),
  relationships: await db.$queryRaw<{ source: string; target: string; weight: number }[]>`
    SELECT r.source_id AS source, r.target_id AS target, r.weight FROM graph_relationships r
    JOIN graph_entities a ON a.id = r.source_id
    JOIN graph_entities b ON b.id = r.target_id
    WHERE r.project_id = ${s.projectId}::uuid AND r.node_index_id = ${s.indexId}::uuid
    ORDER BY a.key, b.key, r.weight DESC`,
});

/** Replaces the index's communities; entities point at their leaf community. Batched like writeGraph. */
export const writeCommunities = async (s: Scope, communities: Community[]) => {
  const ids = new Map(communities.map((c) => [c.ref, randomUUID()]));
  const leafOf: { entity: string; community: string }[] = [];
  for (const c of communities)
    if (c.leaf) for (const m of c.members) leafOf.push({ entity: m, community: ids.get(c.ref)! });
  await db.$executeRaw`
    UPDATE graph_entities SET community_id = NULL
    WHERE project_id = ${s.projectId}::uuid AND node_index_id = ${s.indexId}::uuid AND community_id IS NOT NULL`;
  await db.graphCommunity.deleteMany({ where: where(s) });
  await inBatches(communities, (batch) =>
    db.graphCommunity.createMany({
      data: batch.map((c) => ({
        ...where(s),
        id: ids.get(c.ref)!,
        level: c.level,
        parentId: c.parent ? ids.get(c.parent)! : null,
        entityIds: c.members,
        // Non-leaf communities are structure only: their leaves carry the summaries.
        summary: c.leaf ? null : "",
      })),
    }),
  );
  await inBatches(
    leafOf,
    (batch) => db.$executeRaw`
    UPDATE graph_entities e SET community_id = v.community_id
    FROM unnest(${batch.map((l) => l.entity)}::uuid[], ${batch.map((l) => l.community)}::uuid[]) AS v(id, community_id)
    WHERE e.id = v.id AND e.project_id = ${s.projectId}::uuid AND e.node_index_id = ${s.indexId}::uuid`,
  );
};

export const unsummarised = (s: Scope, limit: number) =>
  db.graphCommunity.findMany({
    where: { ...where(s), summary: null },
    orderBy: [{ level: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true, entityIds: true },
  });

export const communityCounts = async (s: Scope) => {
  const [total, leaves, levels, pending] = await Promise.all([
    db.graphCommunity.count({ where: where(s) }),
    db.graphCommunity.count({ where: { ...where(s), OR: [{ summary: null }, { summary: { not: "" } }] } }),
    db.graphCommunity.aggregate({ where: where(s), _max: { level: true } }),
    db.graphCommunity.count({ where: { ...where(s), summary: null } }),
  ]);
  return { total, leaves, levels: total ? (levels._max.level ?? 0) + 1 : 0, pending };
};

export const saveSummary = (s: Scope, id: string, title: string, summary: string) =>
  db.graphCommunity.updateMany({ where: { ...where(s), id }, data: { title, summary } });

export const graphCounts = async (s: Scope) => ({
  entities: await db.graphEntity.count({ where: where(s) }),
  relationships: await db.graphRelationship.count({ where: where(s) }),
});
