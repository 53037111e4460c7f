import { generateAnswer } from "../answers/generate";
import type { Citation } from "../answers/events.schema";
import { sourceChunkSets } from "../chunk-sets/service";
import { retrieve } from "../retrieval/retrieve";
import type { RetrievedChunk } from "../retrieval/types";
import type { NodeKind, Prompt } from "./graph.schema";
import type { ChunkingConfig, DatasetConfig, LlmConfig, RetrievalConfig } from "./node-kinds";
import { rerankItems, smartRag } from "./smart-rag";
import { chunkSetsSize, datasetCounts } from "./counts";
import { builderOf } from "./node-indexes/registry";
import type { IndexKind } from "../index-builders/types";

/**
 * What each node kind does when a flow runs. A node gets the outputs of its upstream nodes and returns its own:
 * a scope (which documents or chunk sets to search), retrieved items, or generated text. Typed by NodeKind, so a
 * new kind does not compile until it has an operation.
 */

export type Scope = { sourceIds?: string[]; chunkSetIds?: string[] };
export type Generated = { text: string; model: string; citations: Citation[] };
export type NodeOutput = { scope?: Scope; items?: RetrievedChunk[]; generated?: Generated };

export type RunContext = {
  projectId: string;
  query: string;
  prompts: Prompt[];
  /** Chunk sets of a chunking node over these sources (a revision's, or built on demand for a simulation). */
  chunkSetsOf: (nodeId: string, config: ChunkingConfig, sourceIds: string[]) => Promise<string[]>;
  /** The index a graph-rag / raptor-rag node searches (the revision's, or a ready one of the same inputs). */
  nodeIndexOf: (nodeId: string, kind: IndexKind, config: Record<string, unknown>, chunkSetIds: string[]) => Promise<string>;
  /** Whether this node's text is the run's answer (its tokens are streamed). */
  isFinalGenerator: (nodeId: string) => boolean;
  /** Count documents and chunks for the node results (simulations and deploys, not every run). */
  measure?: boolean;
  onToken?: (text: string) => void;
  signal?: AbortSignal;
};

type Operation = (args: {
  nodeId: string;
  config: Record<string, unknown>;
  inputs: NodeOutput[];
  ctx: RunContext;
}) => Promise<NodeOutput & { counts?: Record<string, number> }>;

/** Upstream scopes joined: chunk sets when any upstream chunking node gave them, else the datasets' sources. */
const mergedScope = (inputs: NodeOutput[]): Scope => {
  const chunkSetIds = inputs.flatMap((i) => i.scope?.chunkSetIds ?? []);
  if (chunkSetIds.length) return { chunkSetIds: [...new Set(chunkSetIds)] };
  return { sourceIds: [...new Set(inputs.flatMap((i) => i.scope?.sourceIds ?? []))] };
};

/** Upstream items joined, each chunk once, best first. */
const mergedItems = (inputs: NodeOutput[]): RetrievedChunk[] => {
  const byId = new Map<string, RetrievedChunk>();
  for (const item of inputs.flatMap((i) => i.items ?? [])) {
    const prev = byId.get(item.chunkId);
    if (!prev || prev.score < item.score) byId.set(item.chunkId, item);
  }
  return [...byId.values()].sort((a, b) => b.score - a.score);
};

/** The prompt as the answerer's instructions: the query is filled in; the context is the numbered passages it gets. */
const instructions = (prompt: Prompt, query: string) =>
  prompt.text.split("{context}").join("(the numbered context passages that follow)").split("{query}").join(query);

const generate: Operation = async ({ nodeId, config, inputs, ctx }) => {
  const items = mergedItems(inputs);
  const upstream = inputs.find((i) => i.generated)?.generated;
  if (upstream) return { items, generated: upstream };
  if (!ctx.query.trim()) return { items };
  const llm = config as LlmConfig;
  const prompt = ctx.prompts.find((p) => p.id === llm.promptId) ?? ctx.prompts[0]!;
  const answer = await generateAnswer({
    question: ctx.query,
    projectId: ctx.projectId,
    chunks: items,
    systemPrompt: instructions(prompt, ctx.query),
    modelId: llm.model,
    temperature: llm.temperature,
    onToken: ctx.isFinalGenerator(nodeId) ? ctx.onToken : undefined,
    signal: ctx.signal,
  });
  return { items, generated: { text: answer.answer, model: answer.model, citations: answer.citations } };
};

/** A graph-rag or raptor-rag node: its builder's search over the node's index (server/flows/node-indexes/). */
const searchIndex =
  (kind: IndexKind): Operation =>
  async ({ nodeId, config, inputs, ctx }) => {
    const scope = mergedScope(inputs);
    const chunkSetIds = scope.chunkSetIds ?? (await sourceChunkSets(ctx.projectId, scope.sourceIds ?? []));
    const indexId = await ctx.nodeIndexOf(nodeId, kind, config, [...chunkSetIds].sort());
    const counts = ctx.measure ? { total_chunks: await chunkSetsSize(ctx.projectId, chunkSetIds) } : undefined;
    if (!ctx.query.trim()) return { items: [], counts };
    const items = await builderOf(kind).retrieve({
      projectId: ctx.projectId,
      indexId,
      query: ctx.query,
      topK: (config.topK as number | null) ?? null,
    });
    return { items, counts };
  };

export const OPERATIONS: Record<NodeKind, Operation> = {
  dataset: async ({ config, ctx }) => {
    const { fileIds } = config as DatasetConfig;
    const counts = ctx.measure ? await datasetCounts(ctx.projectId, fileIds) : undefined;
    return { scope: { sourceIds: fileIds }, counts };
  },
  chunking: async ({ nodeId, config, inputs, ctx }) => {
    const sourceIds = mergedScope(inputs).sourceIds ?? [];
    const chunkSetIds = await ctx.chunkSetsOf(nodeId, config as ChunkingConfig, sourceIds);
    const counts = ctx.measure ? { total_chunks: await chunkSetsSize(ctx.projectId, chunkSetIds) } : undefined;
    return { scope: { chunkSetIds }, counts };
  },
  retrieval: async ({ config, inputs, ctx }) => {
    const c = config as RetrievalConfig;
    const result = await retrieve({
      projectId: ctx.projectId,
      query: ctx.query,
      searchType: c.searchType,
      topK: c.topK,
      scoreThreshold: c.scoreThreshold,
      retrievalQuery: c.retrievalQuery,
      ...mergedScope(inputs),
    });
    return { items: result.chunks };
  },
  reranking: async ({ config, inputs, ctx }) => {
    const items = mergedItems(inputs);
    const topK = (config.topK as number | null) ?? items.length;
    const { items: ranked } = await rerankItems(ctx.projectId, ctx.query, items);
    return { items: ranked.slice(0, topK) };
  },
  "smart-rag": async ({ config, inputs, ctx }) => {
    const result = await smartRag({
      projectId: ctx.projectId,
      query: ctx.query,
      topK: (config.topK as number | null) ?? null,
      scope: mergedScope(inputs),
    });
    return { items: result.chunks };
  },
  "graph-rag": searchIndex("graph-rag"),
  "raptor-rag": searchIndex("raptor-rag"),
  llm: generate,
  response: generate,
};
