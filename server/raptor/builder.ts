import { db } from "../db";
import type { NodeIndexBuilder } from "../index-builders/types";
import { getEmbedder } from "../providers/embedding";
import { ensureEmbeddingIndex } from "../retrieval/embedding-index";
import { keywordEngine } from "../retrieval/keyword-engine";
import { retrieve } from "../retrieval/retrieve";
import { runOffThread } from "../concurrency/cpu-thread";
import { MAX_CLUSTER_SIZE, type clusterLevel } from "./cluster";
import { deleteSummaries, levelNodes, nodesById, writeSummaries, type IndexRef } from "./store";
import { summarizeCluster, SUMMARY_CHARS, SUMMARY_MAX_TOKENS } from "./summarize";

/**
 * The raptor-rag node's index (Sarthi et al. 2024, RAPTOR): the leaves (chunks of the node's chunk sets) are
 * clustered (./cluster.ts), each cluster summarised (./summarize.ts), the summaries embedded and clustered again,
 * level by level until `max_level` levels stand above the leaves or a level is one cluster (the root). Retrieval
 * searches the collapsed tree: leaves and summaries of every level together.
 *
 * Checkpoint: the level being built, its clusters (member ids, so a resumed build summarises the same clusters),
 * the next cluster to summarise and the totals so far. A step either clusters a level or summarises one batch of
 * clusters; a redone step deletes what it had written (summaries of the level from its first position on).
 */

type Checkpoint = {
  level?: number;
  clusters?: string[][];
  next?: number;
  leaves?: number;
  totals?: { levels: number; clusters: number; summaries: number };
};

export const DEFAULT_MAX_LEVEL = 3;
export const DEFAULT_TOP_K = 10;
/** Clusters summarised per step: one chat call each with a model, cheap sentence picking without one. */
const BATCH_WITH_MODEL = 8;
const BATCH_MODEL_FREE = 32;
/** For the estimate: RAPTOR's trees average 6.7 children per parent; our clusters hold 4 to MAX_CLUSTER_SIZE. */
const MEAN_CLUSTER_SIZE = 6;
const PROMPT_OVERHEAD_TOKENS = 120;

const maxLevelOf = (settings: Record<string, unknown>) =>
  typeof settings.max_level === "number" ? settings.max_level : DEFAULT_MAX_LEVEL;

const countsOf = (cp: Checkpoint) => ({
  total_chunks: cp.leaves ?? 0,
  tree_levels: cp.totals?.levels ?? 0,
  total_clusters: cp.totals?.clusters ?? 0,
  total_summaries: cp.totals?.summaries ?? 0,
});

const done = (cp: Checkpoint) => ({
  done: true,
  checkpoint: { ...cp, clusters: undefined },
  progress: 100,
  step: `tree of ${cp.totals?.levels ?? 0} levels`,
  counts: countsOf(cp),
});

/** Clusters the nodes of the level below `level`, or finishes when there is nothing left to group. */
const clusterStep = async (index: IndexRef, cp: Checkpoint, maxLevel: number) => {
  const level = cp.level ?? 1;
  const nodes = await levelNodes(index, level - 1);
  const state: Checkpoint = { ...cp, level, leaves: level === 1 ? nodes.length : cp.leaves };
  state.totals ??= { levels: 0, clusters: 0, summaries: 0 };
  if (nodes.length <= 1 || level > maxLevel) return done(state);
  // UMAP + mixture takes minutes at thousands of nodes (143 s for 5,183 on two busy cores): off the thread that serves
  // HTTP, as chunking and local embedding are.
  const groups = await runOffThread<ReturnType<typeof clusterLevel>>("server/raptor/cluster.ts", "clusterLevel", [
    nodes.map((n) => n.vector),
  ]);
  const clusters = groups.map((c) => c.map((i) => nodes[i]!.id));
  await deleteSummaries(index, level);
  return {
    done: false,
    checkpoint: { ...state, clusters, next: 0 },
    progress: progressOf(level - 1, 0, maxLevel),
    step: `level ${level}: ${clusters.length} clusters of ${nodes.length} nodes`,
  };
};

const progressOf = (levelsDone: number, fraction: number, maxLevel: number) =>
  Math.min(99, Math.round(((levelsDone + fraction) / maxLevel) * 100));

export const raptorBuilder: NodeIndexBuilder = {
  kind: "raptor-rag",
  settings: (config) => ({ max_level: maxLevelOf(config) }),

  estimate: ({ chunks, chars, settings, model }) => {
    if (!model) return { calls: 0, tokens: 0, model: null };
    let nodes = chunks;
    let inputChars = chars;
    let calls = 0;
    let tokens = 0;
    for (let level = 1; level <= maxLevelOf(settings) && nodes > 1; level++) {
      const clusters = nodes <= MAX_CLUSTER_SIZE ? 1 : Math.ceil(nodes / MEAN_CLUSTER_SIZE);
      calls += clusters;
      tokens += Math.ceil(inputChars / 4) + clusters * (PROMPT_OVERHEAD_TOKENS + SUMMARY_MAX_TOKENS);
      nodes = clusters;
      inputChars = clusters * SUMMARY_CHARS;
    }
    return { calls, tokens, model };
  },

  advance: async ({ index, checkpoint, model }) => {
    const cp = checkpoint as Checkpoint;
    const maxLevel = maxLevelOf(index.settings);
    if (!cp.clusters) return clusterStep(index, cp, maxLevel);
    const level = cp.level!;
    const next = cp.next ?? 0;
    const batch = cp.clusters.slice(next, next + (model ? BATCH_WITH_MODEL : BATCH_MODEL_FREE));
    await deleteSummaries(index, level, next);
    const members = await nodesById(index.projectId, batch.flat());
    const embedder = getEmbedder();
    const drafts = [];
    for (const [i, ids] of batch.entries()) {
      const children = ids.map((id) => members.get(id)).filter((n) => n !== undefined);
      if (!children.length) continue; // its chunks were deleted meanwhile (a source removed): nothing to summarise
      const text = await summarizeCluster({
        texts: children.map((c) => c.text),
        vectors: children.map((c) => c.vector),
        model,
        embedder,
      });
      drafts.push({ position: next + i, text, children });
    }
    const vectors = drafts.length ? await embedder.embed(drafts.map((d) => d.text)) : [];
    const embeddingIndex = await ensureEmbeddingIndex(embedder);
    await writeSummaries(
      index,
      level,
      drafts.map((d, i) => ({ ...d, vector: vectors[i]! })),
      embeddingIndex.id,
    );
    const after = next + batch.length;
    const totals = cp.totals ?? { levels: 0, clusters: 0, summaries: 0 };
    if (after < cp.clusters.length) {
      return {
        done: false,
        checkpoint: { ...cp, next: after },
        progress: progressOf(level - 1, after / cp.clusters.length, maxLevel),
        step: `level ${level}: summaries ${after}/${cp.clusters.length}`,
      };
    }
    const written = await db.chunk.count({ where: { projectId: index.projectId, nodeIndexId: index.id, level } });
    const state: Checkpoint = {
      ...cp,
      totals: {
        levels: level,
        clusters: totals.clusters + cp.clusters.length,
        summaries: totals.summaries + written,
      },
    };
    if (cp.clusters.length === 1 || level >= maxLevel) return done(state);
    return {
      done: false,
      checkpoint: { ...state, level: level + 1, clusters: undefined, next: 0 },
      progress: progressOf(level, 0, maxLevel),
      step: `level ${level}: ${written} summaries`,
    };
  },

  retrieve: async ({ projectId, indexId, query, topK }) => {
    const index = await db.flowNodeIndex.findFirst({ where: { id: indexId, projectId, kind: "raptor-rag" } });
    if (!index) return [];
    // Summaries have no full-text vector (the fallback's statistics count documents only), so on a Postgres without
    // BM25 a hybrid search ranked every summary below the leaves and the tree answered like a plain search (seen on
    // Postgres 15 in CI). There the tree is searched by cosine similarity alone, RAPTOR's own collapsed-tree search.
    const searchType = (await keywordEngine()) === "bm25" ? "hybrid" : "similarity";
    const result = await retrieve({
      projectId,
      query,
      searchType,
      topK: topK ?? DEFAULT_TOP_K,
      chunkSetIds: index.chunkSetIds,
      nodeIndexId: index.id,
    });
    return result.chunks;
  },
};
