import { randomUUID } from "node:crypto";
import { db } from "../db";
import { writeChunkVectors } from "../chunk-sets/vectors";
import { parseVector } from "./vectors";

/**
 * Tree nodes in the chunks table: level 0 are the documents' chunks of the index's chunk sets (node_index_id null),
 * levels above are this index's summaries (node_index_id = the index, position = the cluster's place in its level).
 * A summary names its children and the documents under it in `metadata.raptor`. Every query is scoped by project.
 */

export type TreeNode = {
  id: string;
  sourceId: string;
  chunkSetId: string;
  text: string;
  vector: number[];
  /** Documents under the node, most chunks first: its own source for a leaf. */
  documents: string[];
};

type NodeRow = {
  id: string;
  source_id: string;
  chunk_set_id: string;
  text: string;
  vec: string;
  metadata: { raptor?: { documents?: string[] } } | null;
};

const toNode = (r: NodeRow): TreeNode => ({
  id: r.id,
  sourceId: r.source_id,
  chunkSetId: r.chunk_set_id,
  text: r.text,
  vector: parseVector(r.vec),
  documents: r.metadata?.raptor?.documents ?? [r.source_id],
});

export type IndexRef = { id: string; projectId: string; chunkSetIds: string[] };

/** The nodes of one level in a stable order (leaves: by chunk set and position; summaries: by position). */
export const levelNodes = async (index: IndexRef, level: number): Promise<TreeNode[]> => {
  const rows =
    level === 0
      ? await db.$queryRaw<NodeRow[]>`
          SELECT id::text, source_id::text, chunk_set_id::text, text, embedding::text AS vec, NULL::jsonb AS metadata
          FROM chunks WHERE project_id = ${index.projectId}::uuid AND chunk_set_id = ANY(${index.chunkSetIds}::uuid[])
            AND node_index_id IS NULL AND embedding IS NOT NULL
          ORDER BY chunk_set_id, position, id`
      : await db.$queryRaw<NodeRow[]>`
          SELECT id::text, source_id::text, chunk_set_id::text, text, embedding::text AS vec, metadata
          FROM chunks WHERE project_id = ${index.projectId}::uuid AND node_index_id = ${index.id}::uuid
            AND level = ${level} AND embedding IS NOT NULL
          ORDER BY position`;
  return rows.map(toNode);
};

/** Some nodes by id (the members of the clusters a step summarises), in the order asked. */
export const nodesById = async (projectId: string, ids: string[]): Promise<Map<string, TreeNode>> => {
  const rows = await db.$queryRaw<NodeRow[]>`
    SELECT id::text, source_id::text, chunk_set_id::text, text, embedding::text AS vec, metadata
    FROM chunks WHERE project_id = ${projectId}::uuid AND id = ANY(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.id, toNode(r)]));
};

/** Summaries at this level from `fromPosition` on are deleted: a redone step or a re-clustered level starts clean. */
export const deleteSummaries = async (index: IndexRef, level: number, fromPosition = 0) => {
  await db.$executeRaw`
    DELETE FROM chunks WHERE project_id = ${index.projectId}::uuid AND node_index_id = ${index.id}::uuid
      AND (level > ${level} OR (level = ${level} AND position >= ${fromPosition}))`;
};

const mostCommon = (values: string[]) => {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([v]) => v);
};

export type NewSummary = { position: number; text: string; vector: number[]; children: TreeNode[] };

/**
 * Writes summaries of one level with their vectors. A summary belongs to the chunk set and document most of its
 * children belong to (so a flow run names a real file), and lists every document under it.
 */
export const writeSummaries = async (index: IndexRef, level: number, summaries: NewSummary[], indexId: string) => {
  if (!summaries.length) return;
  const rows = summaries.map((s) => {
    const documents = mostCommon(s.children.flatMap((c) => c.documents));
    return {
      id: randomUUID(),
      projectId: index.projectId,
      sourceId: documents[0]!,
      chunkSetId: mostCommon(s.children.map((c) => c.chunkSetId))[0]!,
      buildId: null,
      position: s.position,
      text: s.text,
      level,
      nodeIndexId: index.id,
      elementIds: [],
      metadata: { raptor: { level, children: s.children.map((c) => c.id), documents } },
    };
  });
  await db.chunk.createMany({ data: rows });
  await writeChunkVectors({ indexId, ids: rows.map((r) => r.id), vectors: summaries.map((s) => s.vector) });
};
