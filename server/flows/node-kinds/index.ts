import type { NodeKind } from "../graph.schema";
import { chunkingKind } from "./chunking";
import { datasetKind } from "./dataset";
import type { NodeKindDef } from "./define";
import { llmKind, responseKind } from "./generation";
import { graphRagKind, raptorRagKind, rerankingKind, smartRagKind } from "./rag";
import { retrievalKind } from "./retrieval";

export type { NodeKindDef } from "./define";

/** Every node kind; typed by NodeKind, so a new kind does not compile until it is described here. */
export const NODE_KIND_DEFS = {
  dataset: datasetKind,
  chunking: chunkingKind,
  retrieval: retrievalKind,
  reranking: rerankingKind,
  "smart-rag": smartRagKind,
  "graph-rag": graphRagKind,
  "raptor-rag": raptorRagKind,
  llm: llmKind,
  response: responseKind,
} satisfies Record<NodeKind, NodeKindDef>;

/** A kind's definition in the registry's common shape (fields by name, config as a plain record). */
export const kindDef = (kind: NodeKind): NodeKindDef => NODE_KIND_DEFS[kind];

/** A node's stored config with the kind's defaults under it, checked (throws the contract's sentence). */
export const parseNodeConfig = (kind: NodeKind, config: Record<string, unknown>) => {
  const def = NODE_KIND_DEFS[kind];
  return def.config.parse({ ...def.defaults, ...config }) as Record<string, unknown>;
};

export type DatasetConfig = typeof datasetKind.defaults;
export type ChunkingConfig = typeof chunkingKind.defaults;
export type RetrievalConfig = typeof retrievalKind.defaults;
export type LlmConfig = typeof llmKind.defaults;
