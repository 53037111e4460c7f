"use client";

import type { ReactNode } from "react";
import type { NodeKind } from "@/server/flows/graph.schema";
import { ChunkingForm } from "./config/chunking-form";
import { DatasetForm } from "./config/dataset-form";
import { GenerationForm } from "./config/generation-form";
import { RetrievalForm } from "./config/retrieval-form";
import { TopKForm } from "./config/top-k-form";
import { KnowledgeGraphLink } from "./knowledge-graph/graph-link";

/**
 * The editor's half of the node-kind registry (STYLE §11): how each kind looks and which form configures it. The
 * server half (server/flows/node-kinds/) holds labels, schemas, defaults and allowed connections; both are
 * Record<NodeKind, …>, so a new kind does not compile until it has both.
 */

export type Category = "Data" | "Retrieve" | "Generate";

type ConfigFormProps = { nodeId: string; projectId: string };

export type NodeUi = {
  category: Category;
  /** A short glyph drawn in the node's tile. */
  icon: string;
  description: string;
  ConfigForm: (props: ConfigFormProps) => ReactNode;
};

export const CATEGORY_TONE: Record<Category, string> = {
  Data: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  Retrieve: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
  Generate: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
};

export const NODE_UI: Record<NodeKind, NodeUi> = {
  dataset: {
    category: "Data",
    icon: "DS",
    description: "Documents of this project",
    ConfigForm: ({ nodeId, projectId }) => <DatasetForm nodeId={nodeId} projectId={projectId} />,
  },
  chunking: {
    category: "Data",
    icon: "CH",
    description: "Its own chunks of the dataset",
    ConfigForm: ({ nodeId, projectId }) => <ChunkingForm nodeId={nodeId} projectId={projectId} />,
  },
  retrieval: {
    category: "Retrieve",
    icon: "RT",
    description: "One search: similarity, keyword, hybrid or semantic",
    ConfigForm: ({ nodeId }) => <RetrievalForm nodeId={nodeId} />,
  },
  reranking: {
    category: "Retrieve",
    icon: "RR",
    description: "Reorders passages, keeps the best",
    ConfigForm: ({ nodeId, projectId }) => <TopKForm nodeId={nodeId} kind="reranking" projectId={projectId} />,
  },
  "smart-rag": {
    category: "Retrieve",
    icon: "SR",
    description: "Rewritten queries, fused and reranked",
    ConfigForm: ({ nodeId }) => <TopKForm nodeId={nodeId} kind="smart-rag" />,
  },
  "graph-rag": {
    category: "Retrieve",
    icon: "GR",
    description: "Entities and relations",
    ConfigForm: ({ nodeId, projectId }) => (
      <>
        <TopKForm nodeId={nodeId} kind="graph-rag" />
        <KnowledgeGraphLink projectId={projectId} nodeId={nodeId} />
      </>
    ),
  },
  "raptor-rag": {
    category: "Retrieve",
    icon: "RA",
    description: "Summary tree",
    ConfigForm: ({ nodeId }) => <TopKForm nodeId={nodeId} kind="raptor-rag" />,
  },
  llm: {
    category: "Generate",
    icon: "AI",
    description: "Writes text from the passages",
    ConfigForm: ({ nodeId, projectId }) => <GenerationForm nodeId={nodeId} kind="llm" projectId={projectId} />,
  },
  response: {
    category: "Generate",
    icon: "↩",
    description: "The flow's answer (required, one per flow)",
    ConfigForm: ({ nodeId, projectId }) => <GenerationForm nodeId={nodeId} kind="response" projectId={projectId} />,
  },
};
