import { defineKind, RAG_UPSTREAM, RETRIEVERS } from "./define";
import { positiveTopK, rangeField } from "./fields";

const AFTER_RETRIEVAL = ["reranking", "llm", "response"] as const;

/** Reorders what a retriever found with the configured reranker and keeps the best `topK` (null keeps all). */
export const rerankingKind = defineKind({
  kind: "reranking",
  label: "Reranking",
  fields: { topK: positiveTopK() },
  defaults: { topK: 10 },
  upstream: RETRIEVERS,
  downstream: ["llm", "response"],
  resultFields: ["totalReranked"],
});

/** Several searches from rewritten queries, fused and reranked (server/flows/smart-rag.ts defines it). */
export const smartRagKind = defineKind({
  kind: "smart-rag",
  label: "Smart RAG",
  fields: { topK: positiveTopK() },
  defaults: { topK: 5 },
  upstream: RAG_UPSTREAM,
  downstream: AFTER_RETRIEVAL,
  resultFields: ["totalProcessed", "totalChunks", "totalRetrieved"],
});

/** A knowledge graph of the upstream chunk sets, built by the deploy and searched locally and globally (server/graph-rag/). */
export const graphRagKind = defineKind({
  kind: "graph-rag",
  label: "Graph RAG",
  fields: { topK: positiveTopK() },
  defaults: { topK: 5 },
  upstream: RAG_UPSTREAM,
  downstream: AFTER_RETRIEVAL,
  resultFields: ["totalProcessed", "totalChunks", "totalRetrieved", "totalEntities", "totalRelationships"],
});

/** A tree of summaries over its chunk sets, searched collapsed (server/raptor/). */
export const raptorRagKind = defineKind({
  kind: "raptor-rag",
  label: "RAPTOR RAG",
  fields: {
    topK: rangeField("topK must be between 1 and 100 or null", { min: 1, max: 100, int: true }).nullable(),
    max_level: rangeField("max_level must be between 2 and 8", { min: 2, max: 8, int: true }),
  },
  defaults: { topK: 10, max_level: 3 },
  upstream: RAG_UPSTREAM,
  downstream: AFTER_RETRIEVAL,
  resultFields: [
    "totalProcessed",
    "totalChunks",
    "totalRetrieved",
    "treeLevels",
    "totalClusters",
    "totalSummaries",
    "clusteringRatio",
    "summarizationRatio",
    "treeDensity",
  ],
});
