import { z } from "zod";

/**
 * What made Quarry call a remote model, and which kind of model it was: the `model_calls` table's enums
 * (prisma/schema/usage.prisma), shared with the usage page.
 */
export const MODEL_CALL_CAUSES = [
  "ask",
  "extraction",
  "enrichment",
  "ingestion",
  "search",
  "flow_run",
  "flow_build",
  "graph_build",
  "raptor_build",
  "evaluation",
  "reembedding",
] as const;
export const ModelCallCause = z.enum(MODEL_CALL_CAUSES);
export type ModelCallCause = z.infer<typeof ModelCallCause>;

export const MODEL_CAPABILITIES = ["chat", "embedding", "rerank", "vision", "speech"] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];

/** How the usage page names each cause. */
export const CAUSE_LABELS: Record<ModelCallCause, string> = {
  ask: "Ask (chat, ask-sources)",
  extraction: "Extraction",
  enrichment: "Enrichment",
  ingestion: "Ingestion (parsing, embedding)",
  search: "Search",
  flow_run: "Flow runs",
  flow_build: "Flow deploys (chunking)",
  graph_build: "Graph RAG builds",
  raptor_build: "RAPTOR builds",
  evaluation: "Evaluation",
  reembedding: "Re-embedding",
};
