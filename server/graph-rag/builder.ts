import type { NodeIndexBuilder } from "../index-builders/types";
import { advanceGraph } from "./build";
import { estimateGraph } from "./estimate";
import { searchGraph } from "./search";
import type { GraphCheckpoint } from "./types";

/**
 * The graph-rag node's index: a knowledge graph of its chunk sets (./build.ts), searched locally and globally
 * (./search.ts). Nothing of the node config changes the graph (topK is a query-time setting), so flows and revisions
 * over the same chunk sets and chat model share one graph.
 */
export const graphRagBuilder: NodeIndexBuilder = {
  kind: "graph-rag",
  settings: () => ({}),
  estimate: ({ chunks, chars, model }) => estimateGraph({ chunks, chars, model }),
  advance: ({ index, checkpoint, model }) => advanceGraph({ index, checkpoint: checkpoint as GraphCheckpoint, model }),
  retrieve: (input) => searchGraph(input),
};
