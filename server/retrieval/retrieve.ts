import type { ProjectDefaults } from "../auth/api-tokens";
import { resolveEmbedder, resolveReranker } from "../model-providers/resolve";
import { errorMessage } from "../errors";
import { isUuid } from "../ids";
import { logger } from "../logger";
import { chunkFromRow } from "./chunk-row";
import { ensureEmbeddingIndex, toVectorLiteral } from "./embedding-index";
import { keywordEngine, type KeywordEngine } from "./keyword-engine";
import { commonLexemes } from "./keyword-query";
import { reembeddingProgress } from "./reembedding";
import { runSearch } from "./search-pool";
import { RETRIEVAL_TOP_K, type SearchType } from "./search-type.schema";
import type { RetrievedChunk } from "./types";
import { searchSql, type SearchPlan, type SearchRow } from "./vector-search";

/**
 * The one retrieval function: prebuilt-rag, the chat layer, the dashboard search box and the flow retrieval node all
 * call it. It searches chunk sets (given, or those of the given sources, or all the project's) and answers scored
 * chunks, best first, with what produced them.
 */

/**
 * Weight of cosine similarity in the hybrid score (the keyword score gets the rest). Chosen on SciFact train with the
 * local embedder (nDCG@10, 809 queries): 0.6956 at 0 (BM25 alone), 0.6971 at 0.1, 0.6974 at 0.2, 0.6984 at 0.3,
 * 0.6967 at 0.5; reciprocal rank fusion (k = 60) ranked far lower (0.639 at a vector weight of 0.3). bench/ prints
 * them again (`BENCH_ONLY=retrieval npm run bench`).
 */
export const HYBRID_VECTOR_WEIGHT = 0.3;
/**
 * Candidates each side contributes: enough that the fused top K (and recall@100) is not cut by the pools. With
 * distinct documents, one long document's chunks could fill a pool, so it is larger.
 */
const POOL_FACTOR = 4;
const DISTINCT_POOL_FACTOR = 10;
const MIN_POOL = 50;
const MAX_POOL = 1000;
/** Semantic search reranks this many hybrid candidates per result wanted. */
const RERANK_FACTOR = 3;
const MIN_RERANK = 30;
const MAX_RERANK = 300;
const MAX_QUERY_CHARS = 4000;

export const UNINDEXED_MESSAGE = "No indexed sources in scope; run POST /index or reprocess with indexing=full";

export type RetrieveInput = {
  projectId: string;
  query: string;
  searchType?: SearchType;
  topK?: number;
  scoreThreshold?: number;
  /** A template for what is searched: `{query}` stands for the query (without it, the template is searched as is). */
  retrievalQuery?: string | null;
  chunkSetIds?: string[];
  /** Resolved to these sources' searchable chunk sets. */
  sourceIds?: string[];
  /** At most one chunk per document (source). */
  distinctDocuments?: boolean;
  /** Search this RAPTOR tree's summaries too (server/raptor/); never set, summaries are never returned. */
  nodeIndexId?: string;
  /** The project's team and default models when the caller has them already (a token check read them). */
  project?: ProjectDefaults;
};

export type RetrieveResult = {
  chunks: RetrievedChunk[];
  /** Why results may be fewer or ranked differently than asked (nothing indexed, another model, a failed reranker). */
  message?: string;
  /** The query that was searched (after the retrievalQuery template). */
  query: string;
  searchType: SearchType;
  /** What actually ran: keyword when vectors could not be used. */
  effectiveSearchType: SearchType;
  keywordEngine: KeywordEngine;
  /** The embedding model that embedded the query; null when vectors were not used. */
  embeddingModel: string | null;
  /** The reranker (model or local method) for semantic searches. */
  reranker: string | null;
};

export const applyRetrievalQuery = (query: string, template?: string | null) => {
  if (!template?.trim()) return query;
  return template.includes("{query}") ? template.split("{query}").join(query) : template;
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round = (value: number | null) => (value === null ? null : Math.round(value * 1e6) / 1e6);

const toChunk = (row: SearchRow): RetrievedChunk =>
  chunkFromRow({ ...row, id: row.id! }, clamp(Number(row.score), 0, 1), {
    similarity: row.similarity === null ? null : clamp(Number(row.similarity), 0, 1),
    keyword: row.keyword === null ? null : Number(row.keyword),
    rerank: null,
  });

/** Why chunk sets in scope were searched by keyword only, with the re-embedding job's progress when one runs. */
const staleMessage = async (projectId: string, stale: number, model: string) => {
  const job = await reembeddingProgress(projectId);
  const progress = job ? ` Re-embedding is under way: ${job.doneChunks} of ${job.totalChunks} chunks done.` : "";
  return (
    `${stale} chunk set(s) in scope hold vectors of another embedding model than ${model}, so this search used ` +
    `keyword search only, until they are re-embedded.${progress}`
  );
};

export const retrieve = async (input: RetrieveInput): Promise<RetrieveResult> => {
  const searchType = input.searchType ?? "hybrid";
  const topK = clamp(Math.floor(input.topK ?? RETRIEVAL_TOP_K.default), RETRIEVAL_TOP_K.min, RETRIEVAL_TOP_K.max);
  const threshold = clamp(input.scoreThreshold ?? 0, 0, 1);
  const text = applyRetrievalQuery(input.query, input.retrievalQuery).slice(0, MAX_QUERY_CHARS);
  const engine = await keywordEngine();
  const messages: string[] = [];
  const base = { query: text, searchType, keywordEngine: engine, reranker: null };
  if (!text.trim() || input.chunkSetIds?.length === 0 || input.sourceIds?.length === 0) {
    return { ...base, chunks: [], effectiveSearchType: searchType, embeddingModel: null };
  }
  if (![...(input.chunkSetIds ?? []), ...(input.sourceIds ?? [])].every(isUuid)) {
    return { ...base, chunks: [], effectiveSearchType: searchType, embeddingModel: null };
  }

  let mode: SearchPlan["mode"] =
    searchType === "similarity" ? "vector" : searchType === "keyword" ? "keyword" : "hybrid";
  let vector: SearchPlan["vector"] = null;
  const embedder = await resolveEmbedder(input.projectId, input.project);
  if (mode !== "keyword") {
    try {
      const index = await ensureEmbeddingIndex(embedder);
      const [queryVector] = await embedder.embed([text]);
      vector = { literal: toVectorLiteral(queryVector!), index };
    } catch (error) {
      logger.warn({ err: error, model: embedder.model }, "query embedding failed; searching by keyword");
      messages.push(`The embedding model ${embedder.model} failed (${errorMessage(error)}); keyword search served.`);
      mode = "keyword";
    }
  }

  const semantic = searchType === "semantic";
  const limit = semantic ? clamp(RERANK_FACTOR * topK, MIN_RERANK, MAX_RERANK) : topK;
  const rows = await runSearch<SearchRow>(
    searchSql({
      projectId: input.projectId,
      chunkSetIds: input.chunkSetIds,
      sourceIds: input.sourceIds,
      nodeIndexId: input.nodeIndexId,
      mode,
      vector,
      keyword: engine === "bm25" ? { engine, text } : { engine, text, common: await commonLexemes() },
      vectorWeight: HYBRID_VECTOR_WEIGHT,
      pool: clamp((input.distinctDocuments ? DISTINCT_POOL_FACTOR : POOL_FACTOR) * limit, MIN_POOL, MAX_POOL),
      limit,
      distinctDocuments: input.distinctDocuments ?? false,
    }),
    // Prepared on a real Postgres with the full-text engine (search-pool.ts says why not with BM25).
    { prepare: engine === "fulltext" },
  );
  const sets = rows[0]?.sets ?? 0;
  const stale = rows[0]?.stale_sets ?? 0;
  if (sets === 0) messages.push(UNINDEXED_MESSAGE);
  if (stale > 0 && mode !== "keyword") {
    messages.push(await staleMessage(input.projectId, stale, embedder.model));
    mode = "keyword";
  }
  let chunks = rows
    .filter((r) => r.id !== null)
    .map((r) => (input.nodeIndexId ? { ...toChunk(r), level: r.level } : toChunk(r)));

  let reranker: string | null = null;
  if (semantic && chunks.length > 0) {
    const provider = await resolveReranker(input.projectId, input.project);
    try {
      const passages = chunks.map((c) => ({
        text: [c.title, c.heading, c.text].filter(Boolean).join("\n"),
        score: c.score,
      }));
      const scores = await provider.rerank(text, passages);
      chunks = chunks
        .map((c, i) => ({ ...c, score: clamp(scores[i] ?? 0, 0, 1), scores: { ...c.scores, rerank: scores[i] ?? 0 } }))
        .sort((a, b) => b.score - a.score || a.fileName.localeCompare(b.fileName) || a.position - b.position);
      reranker = provider.model;
    } catch (error) {
      logger.warn({ err: error, model: provider.model }, "reranking failed; hybrid order kept");
      messages.push(`The reranker ${provider.model} failed (${errorMessage(error)}); results are in hybrid order.`);
    }
  }

  const effectiveSearchType: SearchType =
    mode === "keyword" ? "keyword" : semantic && !reranker ? "hybrid" : searchType;
  return {
    ...base,
    chunks: chunks
      .filter((c) => c.score >= threshold)
      .slice(0, topK)
      .map((c) => ({ ...c, score: round(c.score)!, scores: { ...c.scores, similarity: round(c.scores.similarity) } })),
    ...(messages.length ? { message: messages.join(" ") } : {}),
    effectiveSearchType,
    embeddingModel: mode === "keyword" ? null : embedder.model,
    reranker,
  };
};
