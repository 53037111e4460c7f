import { createHash } from "node:crypto";
import { sourceChunkSets } from "../../chunk-sets/service";
import { db } from "../../db";
import { env } from "../../env";
import { AppError } from "../../errors";
import { resolveChatModel } from "../../model-providers/resolve";
import { flushModelCalls, withModelUsage, type ChatSpend } from "../../providers/usage";
import { recordedChatSpend } from "../../usage/service";
import type { Graph } from "../graph.schema";
import { parseNodeConfig, type ChunkingConfig, type DatasetConfig } from "../node-kinds";
import { meteredModel } from "./meter";
import { builderOf, NODE_INDEX_BUILDERS } from "./registry";
import { NO_SPEND, type Estimate, type IndexKind, type Spend } from "../../index-builders/types";

/**
 * Node indexes (./types.ts) of a flow: what a deploy will spend building them (estimated before it starts and held
 * to the flow's token budget), the index a node of a revision or of the draft searches, and one checkpointed build
 * step at a time for the deploy job.
 */

export const INDEX_KINDS: IndexKind[] = ["graph-rag", "raptor-rag"];
export const isIndexKind = (kind: string): kind is IndexKind => (INDEX_KINDS as string[]).includes(kind);

export const tokenBudgetOf = (flow: { tokenBudget: number | null }) => flow.tokenBudget ?? env.FLOW_BUILD_TOKEN_BUDGET;

const upstreamNodes = (graph: Graph, nodeId: string) =>
  graph.edges.filter((e) => e.target === nodeId).flatMap((e) => graph.nodes.filter((n) => n.id === e.source));

/** Source ids of the datasets feeding a node, directly or through one chunking node. */
const datasetSourcesOf = (graph: Graph, nodeId: string): string[] =>
  upstreamNodes(graph, nodeId).flatMap((up) =>
    up.type === "dataset"
      ? (parseNodeConfig("dataset", up.data.config) as DatasetConfig).fileIds
      : up.type === "chunking"
        ? datasetSourcesOf(graph, up.id)
        : [],
  );

/** Characters of text in the sources' latest successful builds (what chunking will cut into chunks). */
const textChars = async (projectId: string, sourceIds: string[]): Promise<number> => {
  if (!sourceIds.length) return 0;
  const rows = await db.$queryRaw<{ chars: bigint | null }[]>`
    SELECT sum(length(e.text)) AS chars FROM elements e
    WHERE e.build_id IN (
      SELECT DISTINCT ON (b.source_id) b.id FROM builds b
      WHERE b.project_id = ${projectId}::uuid AND b.source_id = ANY(${sourceIds}::uuid[]) AND b.status IN ('Completed', 'Completed with errors')
      ORDER BY b.source_id, b.created_at DESC)`;
  return Number(rows[0]?.chars ?? 0);
};

export type NodeEstimate = Estimate & { nodeId: string; kind: IndexKind };

/**
 * The chat model that builds a project's indexes: its default chat model where something serves it, else the
 * environment's (server/model-providers/resolve.ts); null builds without one (the builders' local methods).
 */
const indexModelId = async (projectId: string) => (await resolveChatModel(projectId))?.id ?? null;

/** What building each graph-rag / raptor-rag node of the graph will spend, from the size of its documents. */
export const estimateIndexes = async (projectId: string, graph: Graph): Promise<NodeEstimate[]> => {
  const model = await indexModelId(projectId);
  const out: NodeEstimate[] = [];
  for (const node of graph.nodes) {
    if (!isIndexKind(node.type) || !NODE_INDEX_BUILDERS[node.type]) continue;
    const builder = builderOf(node.type);
    const chunking = upstreamNodes(graph, node.id).find((n) => n.type === "chunking");
    const size = chunking ? (parseNodeConfig("chunking", chunking.data.config) as ChunkingConfig) : null;
    const chars = await textChars(projectId, [...new Set(datasetSourcesOf(graph, node.id))]);
    const step = size ? Math.max(1, size.chunkSize - size.chunkOverlap) : 1000;
    const settings = builder.settings(parseNodeConfig(node.type, node.data.config));
    const estimate = builder.estimate({ chunks: Math.ceil(chars / step), chars, settings, model });
    out.push({ nodeId: node.id, kind: node.type, ...estimate });
  }
  return out;
};

/** Refuses a deploy whose estimated spend is past the flow's budget (contract §7.3's 400 form). */
export const assertWithinBudget = (estimates: NodeEstimate[], budget: number) => {
  const tokens = estimates.reduce((sum, e) => sum + e.tokens, 0);
  if (tokens <= budget) return;
  const parts = estimates
    .filter((e) => e.tokens > 0)
    .map((e) => `${e.nodeId}: ~${e.tokens.toLocaleString("en-US")} tokens in ${e.calls} calls to ${e.model}`);
  throw new AppError(
    "BAD_REQUEST",
    `Failed to deploy flow: building it is estimated at ~${tokens.toLocaleString("en-US")} chat-model tokens ` +
      `(${parts.join("; ")}), over the flow's token budget of ${budget.toLocaleString("en-US")}; ` +
      `raise the budget or build with fewer documents`,
  );
};

const indexKey = (kind: IndexKind, chunkSetIds: string[], settings: Record<string, unknown>, model: string | null) =>
  createHash("sha256")
    .update(JSON.stringify({ kind, chunkSetIds: [...chunkSetIds].sort(), settings, model }))
    .digest("hex");

/** Chunk sets a node index reads: its upstream chunking nodes' sets, and the sources' own for a dataset upstream. */
export const chunkSetsForIndex = async (
  projectId: string,
  graph: Graph,
  nodeId: string,
  chunkSetsOfChunking: (chunkingNodeId: string) => string[],
) => {
  const ids: string[] = [];
  for (const up of upstreamNodes(graph, nodeId)) {
    if (up.type === "chunking") ids.push(...chunkSetsOfChunking(up.id));
    if (up.type === "dataset")
      ids.push(...(await sourceChunkSets(projectId, (parseNodeConfig("dataset", up.data.config) as DatasetConfig).fileIds)));
  }
  return [...new Set(ids)].sort();
};

/** The index of these inputs: reused when it exists (ready, or half-built: its build resumes), else created. */
export const ensureIndex = async (
  projectId: string,
  kind: IndexKind,
  config: Record<string, unknown>,
  chunkSetIds: string[],
) => {
  const settings = builderOf(kind).settings(config);
  const model = await indexModelId(projectId);
  const key = indexKey(kind, chunkSetIds, settings, model);
  return db.flowNodeIndex.upsert({
    where: { projectId_key: { projectId, key } },
    create: { projectId, kind, key, chunkSetIds, config: settings as object, model },
    update: {},
  });
};

/** A ready index of these inputs, for a simulation of the draft (simulations never build one). */
export const readyIndexFor = async (
  projectId: string,
  nodeId: string,
  kind: IndexKind,
  config: Record<string, unknown>,
  chunkSetIds: string[],
) => {
  const settings = builderOf(kind).settings(config);
  const key = indexKey(kind, chunkSetIds, settings, await indexModelId(projectId));
  const index = await db.flowNodeIndex.findUnique({ where: { projectId_key: { projectId, key } } });
  if (index?.status === "ready") return index.id;
  const label = kind === "graph-rag" ? "Graph RAG" : "RAPTOR RAG";
  throw new AppError(
    "BAD_REQUEST",
    `${label} node '${nodeId}' has no ${kind === "graph-rag" ? "graph" : "tree"} built for its current settings and documents yet: deploy the flow to build it`,
  );
};

const spendOf = (usage: unknown): Spend => ({ ...NO_SPEND, ...(usage as Partial<Spend>) });

/**
 * One checkpointed step of an index build: the builder's next batch, with the chat model metered against `budget`.
 * Its calls are recorded as the project's graph or RAPTOR build with the index as their subject, and the budget is
 * counted from those records (./meter.ts). What was spent is also kept on the index for its status.
 */
export const advanceIndex = async (indexId: string, budget: number) => {
  const index = await db.flowNodeIndex.findUniqueOrThrow({ where: { id: indexId } });
  if (index.status === "ready") return { done: true, progress: 100, step: "ready" };
  const builder = builderOf(index.kind as IndexKind);
  const chat = index.model ? await resolveChatModel(index.projectId) : null;
  if (index.model && chat?.id !== index.model) {
    throw new AppError("CONFLICT", `The chat model changed from ${index.model} while its index was being built; deploy again`);
  }
  const start = (await recordedChatSpend(index.projectId, index.id)) ?? spendOf(index.usage);
  const step: ChatSpend = { calls: 0, tokensIn: 0, tokensOut: 0 };
  const meter = chat ? meteredModel(chat, budget, start, step) : null;
  const usage = {
    projectId: index.projectId,
    cause: index.kind === "graph-rag" ? "graph_build" : "raptor_build",
    subject: index.id,
    spend: step,
  } as const;
  try {
    const result = await withModelUsage(usage, () =>
      builder.advance({
        index: {
          id: index.id,
          projectId: index.projectId,
          chunkSetIds: index.chunkSetIds,
          settings: index.config as Record<string, unknown>,
        },
        checkpoint: index.checkpoint as Record<string, unknown>,
        model: meter?.model ?? null,
      }),
    );
    await db.flowNodeIndex.update({
      where: { id: indexId },
      data: {
        checkpoint: result.checkpoint as object,
        progress: result.done ? 100 : Math.min(99, Math.round(result.progress)),
        step: result.step,
        usage: (meter?.spent() ?? start) as object,
        ...(result.done ? { status: "ready", counts: (result.counts ?? {}) as object, error: null } : {}),
      },
    });
    return { done: result.done, progress: result.progress, step: result.step };
  } catch (error) {
    if (meter) await db.flowNodeIndex.update({ where: { id: indexId }, data: { usage: meter.spent() as object } });
    throw error;
  } finally {
    // The next step (maybe in another process) reads this one's spend back from the records.
    await flushModelCalls();
  }
};
