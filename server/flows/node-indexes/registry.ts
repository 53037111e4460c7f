import { raptorBuilder } from "../../raptor/builder";
import { graphRagBuilder } from "../../graph-rag/builder";
import type { IndexKind, NodeIndexBuilder } from "../../index-builders/types";

/** The builder of each node-index kind; a kind without one cannot be deployed (validate-graph says so). */
export const NODE_INDEX_BUILDERS: Partial<Record<IndexKind, NodeIndexBuilder>> = {
  "raptor-rag": raptorBuilder,
  "graph-rag": graphRagBuilder,
};

export const builderOf = (kind: IndexKind): NodeIndexBuilder => {
  const builder = NODE_INDEX_BUILDERS[kind];
  if (!builder) throw new Error(`No index builder for ${kind} nodes`);
  return builder;
};
