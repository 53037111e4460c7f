import type { ChatModel } from "../providers/chat";
import type { RetrievedChunk } from "../retrieval/types";

/**
 * A node index is what a graph-rag or raptor-rag node searches: built by a deploy over its upstream chunk sets, in
 * checkpointed steps, with the chat model when one is configured (metered against the flow's token budget) or
 * model-free. Each kind has one builder (server/graph-rag/, server/raptor/) registered in
 * server/flows/node-indexes/registry.ts. The contract lives here, below both the builders and flows, so that flows
 * depends on the builders and they never on flows.
 */

export type IndexKind = "graph-rag" | "raptor-rag";

/** Chat-model spending: calls made and tokens in and out. */
export type Spend = { calls: number; tokensIn: number; tokensOut: number };
export const NO_SPEND: Spend = { calls: 0, tokensIn: 0, tokensOut: 0 };

/** What a build is expected to spend, from the size of its input; model null: model-free, nothing to pay. */
export type Estimate = { calls: number; tokens: number; model: string | null };

/** The index being built, as its builder sees it. */
export type IndexInput = {
  id: string;
  projectId: string;
  chunkSetIds: string[];
  /** The node settings the index depends on (the builder's `settings` of the node config). */
  settings: Record<string, unknown>;
};

export type AdvanceResult = {
  /** True when the index is complete: `counts` are then its result fields. */
  done: boolean;
  /** The builder's cursor, stored after the step: the next step (or a resumed one after a crash) starts from it. */
  checkpoint: Record<string, unknown>;
  /** 0-100 for this index. */
  progress: number;
  /** What the step did, shown on the deploy (`extract 3/40`, `level 2` …). */
  step: string;
  counts?: Record<string, number | null>;
};

export type NodeIndexBuilder = {
  kind: IndexKind;
  /** The part of the node config the index depends on (query-time settings such as topK are not). */
  settings: (config: Record<string, unknown>) => Record<string, unknown>;
  /** Expected spend from the input's size, before anything is called. */
  estimate: (input: {
    chunks: number;
    chars: number;
    settings: Record<string, unknown>;
    model: string | null;
  }) => Estimate;
  /**
   * One checkpointed step: the next batch after `checkpoint`. It must be safe to run again from the same checkpoint
   * (a step that crashed is redone), so what it writes is keyed or deleted-then-written per batch. `model` is the
   * configured chat model metered against the budget (it throws BudgetReachedError past it), or null: model-free.
   */
  advance: (input: {
    index: IndexInput;
    checkpoint: Record<string, unknown>;
    model: ChatModel | null;
  }) => Promise<AdvanceResult>;
  /** The node's items for a query, best first, scores in [0, 1]; topK null: the builder's default. */
  retrieve: (input: {
    projectId: string;
    indexId: string;
    query: string;
    topK: number | null;
  }) => Promise<RetrievedChunk[]>;
};
