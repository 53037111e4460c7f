import type { NodeKind } from "../graph.schema";
import { chunkingKind } from "./chunking";
import { datasetKind } from "./dataset";
import type { NodeKindDef } from "./define";
import { llmKind, responseKind } from "./generation";
import { graphRagKind, raptorRagKind, rerankingKind, smartRagKind } from "./rag";
import { retrievalKind } from "./retrieval";

export type { NodeKindDef } from "./define";

/** Every node kind; typed by NodeKind, so a new kind does not compile until it is described here. */
export const NODE_KIND_DEFS: Record<NodeKind, NodeKindDef> = {
  dataset: datasetKind as unknown as NodeKindDef,
  chunking: chunkingKind as unknown as NodeKindDef,
  retrieval: retrievalKind as unknown as NodeKindDef,
  reranking: rerankingKind as unknown as NodeKindDef,
  "smart-rag": smartRagKind as unknown as NodeKindDef,
  "graph-rag": graphRagKind as unknown as NodeKindDef,
  "raptor-rag": raptorRagKind as unknown as NodeKindDef,
  llm: llmKind as unknown as NodeKindDef,
  response: responseKind as unknown as NodeKindDef,
};

/** A node's stored config with the kind's defaults under it, checked (throws the contract's sentence). */
export const parseNodeConfig = (kind: NodeKind, config: Record<string, unknown>) => {
  const def = NODE_KIND_DEFS[kind];
  return def.config.parse({ ...def.defaults, ...config }) as Record<string, unknown>;
};

export type DatasetConfig = typeof datasetKind.defaults;
export type ChunkingConfig = typeof chunkingKind.defaults;
export type RetrievalConfig = typeof retrievalKind.defaults;
export type LlmConfig = typeof llmKind.defaults;
