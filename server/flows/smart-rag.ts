import { STOPWORDS } from "../enrichment/stopwords";
import { resolveReranker } from "../model-providers/resolve";
import { retrieve } from "../retrieval/retrieve";
import type { RetrievedChunk } from "../retrieval/types";

/**
 * Smart RAG, as Quarry defines it:
 *   1. Query rewriting (local, deterministic): the question as asked; its content words alone (stop words removed),
 *      which a keyword search ranks more sharply; and each sub-question when it asks several ("...? ...", "; ", or
 *      clauses joined by " and "). At most four searches.
 *   2. One hybrid search per rewrite over the node's documents, each taking 4 × topK candidates (at least 20).
 *   3. Reciprocal rank fusion (k = 60) of the result lists, so a passage found by several rewrites rises.
 *   4. The configured reranker (server/providers/rerank) reorders the best 3 × topK fused passages against the
 *      question as asked; the best topK are returned (topK null: all fused passages, reranked).
 */

const RRF_K = 60;
const MAX_REWRITES = 4;

export const rewriteQuery = (query: string): string[] => {
  const asked = query.trim();
  if (!asked) return [];
  const words = asked.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const content = words.filter((w) => !STOPWORDS.has(w) && w.length > 1).join(" ");
  const parts = asked
    .split(/\?\s+|;\s+|\s+and\s+(?=(?:what|how|why|when|where|who|which|is|are|does|do|can)\b)/i)
    .map((p) => p.trim().replace(/\?$/, ""))
    .filter((p) => p.split(/\s+/).length >= 3);
  const variants = [asked, content, ...(parts.length > 1 ? parts : [])].filter(Boolean);
  return [...new Set(variants)].slice(0, MAX_REWRITES);
};

export const fuseRankings = (lists: RetrievedChunk[][]): RetrievedChunk[] => {
  const fused = new Map<string, { chunk: RetrievedChunk; score: number }>();
  for (const list of lists) {
    list.forEach((chunk, rank) => {
      const entry = fused.get(chunk.chunkId) ?? { chunk, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      fused.set(chunk.chunkId, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).map((e) => e.chunk);
};

/** Items reordered by the project's reranker against the query (scores become the reranker's, in [0, 1]). */
export const rerankItems = async (projectId: string, query: string, items: RetrievedChunk[]) => {
  const reranker = await resolveReranker(projectId);
  if (items.length === 0) return { items, reranker: reranker.model };
  const scores = await reranker.rerank(
    query,
    items.map((c) => ({ text: [c.title, c.heading, c.text].filter(Boolean).join("\n"), score: c.score })),
  );
  const ranked = items
    .map((c, i) => ({
      ...c,
      score: Math.min(1, Math.max(0, scores[i] ?? 0)),
      scores: { ...c.scores, rerank: scores[i] ?? 0 },
    }))
    .sort((a, b) => b.score - a.score);
  return { items: ranked, reranker: reranker.model };
};

export const smartRag = async ({
  projectId,
  query,
  topK,
  scope,
}: {
  projectId: string;
  query: string;
  topK: number | null;
  scope: { chunkSetIds?: string[]; sourceIds?: string[] };
}) => {
  const rewrites = rewriteQuery(query);
  const want = topK ?? 20;
  const lists = await Promise.all(
    rewrites.map(async (q) => {
      const result = await retrieve({
        projectId,
        query: q,
        searchType: "hybrid",
        topK: Math.min(100, Math.max(20, 4 * want)),
        ...scope,
      });
      return result.chunks;
    }),
  );
  const fused = fuseRankings(lists);
  const candidates = topK === null ? fused : fused.slice(0, 3 * topK);
  const { items: ranked, reranker } = await rerankItems(projectId, query, candidates);
  return { chunks: topK === null ? ranked : ranked.slice(0, topK), rewrites, reranker };
};
