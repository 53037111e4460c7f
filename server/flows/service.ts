import { db } from "../db";
import { AppError } from "../errors";
import { assertNodeModel } from "../model-providers/project-models";
import type { Prisma } from "../generated/prisma/client";
import type { FlowStatus } from "../generated/prisma/enums";
import { releaseUnusedFlowChunkSets } from "./chunk-sets";
import { releaseUnusedIndexes } from "./deploy-indexes";
import { Graph, isNodeKind, type NodeKind, type Prompt } from "./graph.schema";
import { NODE_KIND_DEFS } from "./node-kinds";
import { listPrompts, savePrompts } from "./prompts";
import { markChanged, type NodeStates } from "./node-state";
import { validateGraph } from "./validate-graph";

/** Flows of a project: the draft graph and its node flags. Every query is scoped by project. */

export type FlowRow = NonNullable<Awaited<ReturnType<typeof db.flow.findFirst>>>;

export const findFlow = (projectId: string, name: string) => db.flow.findFirst({ where: { projectId, name } });

export const listFlows = (projectId: string) =>
  db.flow.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });

export const graphOf = (flow: Pick<FlowRow, "graph">): Graph => Graph.parse(flow.graph);
export const statesOf = (flow: Pick<FlowRow, "nodeState">) => (flow.nodeState ?? {}) as NodeStates;

/**
 * No flow of that name in the project. Its own class, so a route that words the 404 its own way can tell it apart
 * (the public node and prompt routes say `Flow not found`, contract §7.1: server/trpc/routers/public-flows.ts).
 */
export class FlowNotFoundError extends AppError {
  constructor(name: string) {
    super("NOT_FOUND", `Flow with name ${name} not found`);
  }
}

/** A flow by name, or FlowNotFoundError. */
export const requireFlow = async (projectId: string, name: string) => {
  const flow = await findFlow(projectId, name);
  if (!flow) throw new FlowNotFoundError(name);
  return flow;
};

/**
 * Read-modify-write of a draft, guarded by its version: a concurrent edit makes this one re-read and apply again,
 * so no update is lost.
 */
export const mutateDraft = async (
  flowId: string,
  change: (flow: FlowRow) => { graph?: Graph; nodeState?: NodeStates; status?: FlowStatus } | null,
): Promise<FlowRow | null> => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const flow = await db.flow.findUnique({ where: { id: flowId } });
    if (!flow) return null;
    const next = change(flow);
    if (!next) return flow;
    const { count } = await db.flow.updateMany({
      where: { id: flowId, version: flow.version },
      data: {
        ...(next.graph ? { graph: next.graph as unknown as Prisma.InputJsonValue } : {}),
        ...(next.nodeState ? { nodeState: next.nodeState as unknown as Prisma.InputJsonValue } : {}),
        ...(next.status ? { status: next.status } : {}),
        version: { increment: 1 },
        ...(next.graph ? { draftVersion: { increment: 1 } } : {}),
      },
    });
    if (count === 1) return db.flow.findUnique({ where: { id: flowId } });
  }
  throw new AppError("CONFLICT", "The flow is being changed by someone else; try again");
};

/** Creates a flow, or replaces the draft of an existing one (`replace`), from a graph checked as on save. */
export const saveFlow = async ({
  projectId,
  name,
  description,
  graph,
  prompts = [],
  replace = false,
}: {
  projectId: string;
  name: string;
  description?: string | null;
  graph: Graph;
  prompts?: Prompt[];
  replace?: boolean;
}) => {
  const check = validateGraph(graph, "save");
  if (!check.ok) throw new AppError("BAD_REQUEST", `Flow configuration is invalid: ${check.errors[0]!.message}`);
  const existing = await findFlow(projectId, name);
  if (existing && !replace) throw new AppError("CONFLICT", `A flow named ${name} already exists`);
  await savePrompts(projectId, prompts);
  const status = graph.nodes.length === 0 ? "New" : "NotDeployed";
  const data = { graph: graph as unknown as Prisma.InputJsonValue, description: description ?? null };
  if (!existing) return db.flow.create({ data: { projectId, name, ...data, status } });
  const states: NodeStates = Object.fromEntries(
    graph.nodes.map((n) => [n.id, { updated: false, waiting: false, processing: false, has_error: false }]),
  );
  return db.flow.update({
    where: { id: existing.id },
    data: {
      ...data,
      nodeState: states as unknown as Prisma.InputJsonValue,
      status: existing.status === "Deployed" || existing.status === "Failed" ? existing.status : status,
      version: { increment: 1 },
      draftVersion: { increment: 1 },
    },
  });
};

/** The flow as the CLI's JSON format: graph, description and the project prompts its nodes use. */
export const exportFlow = async (projectId: string, name: string) => {
  const flow = await requireFlow(projectId, name);
  const graph = graphOf(flow);
  const used = new Set(graph.nodes.map((n) => n.data.config.promptId).filter((id) => typeof id === "string"));
  const prompts = (await listPrompts(projectId)).filter((p) => used.has(p.id) && p.id !== "default_retrieval_prompt");
  // The database keeps JSON keys in its own order; configs are written in their kind's field order, so an export is
  // stable and an imported file comes back as it was written.
  const nodes = graph.nodes.map((n) => {
    const order = isNodeKind(n.type) ? Object.keys(NODE_KIND_DEFS[n.type].fields.shape) : [];
    const keys = Object.keys(n.data.config).sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
    return { ...n, data: { ...n.data, config: Object.fromEntries(keys.map((k) => [k, n.data.config[k]])) } };
  });
  return { name: flow.name, description: flow.description, nodes, edges: graph.edges, prompts };
};

const rank = (order: string[], key: string) => (order.includes(key) ? order.indexOf(key) : order.length);

export const deleteFlow = async (projectId: string, name: string) => {
  const flow = await requireFlow(projectId, name);
  await db.flow.delete({ where: { id: flow.id } });
  await releaseUnusedFlowChunkSets(projectId);
  await releaseUnusedIndexes(projectId);
};

/** URL segments of the node endpoints (§7.1) and the kinds each lists. `/llm` lists llm nodes only (§11.3). */
export const SEGMENT_KINDS: Record<string, NodeKind> = {
  datasets: "dataset",
  chunking: "chunking",
  retrieval: "retrieval",
  reranking: "reranking",
  "smart-rag": "smart-rag",
  "graph-rag": "graph-rag",
  "raptor-rag": "raptor-rag",
  llm: "llm",
};

/** Wording of `Failed to retrieve <x> nodes` (§7.5). */
export const LIST_NAMES: Record<string, string> = {
  datasets: "dataset",
  chunking: "chunking",
  retrieval: "retrieval",
  reranking: "reranking",
  "smart-rag": "smart RAG",
  "graph-rag": "graph RAG",
  "raptor-rag": "RAPTOR RAG",
  llm: "LLM",
};

export const kindOfSegment = (segment: string): NodeKind => {
  const kind = SEGMENT_KINDS[segment];
  if (!kind) throw new AppError("NOT_FOUND", "Not Found");
  return kind;
};

/** Node kinds a PATCH on a segment may change: `/llm/{id}` also takes the response node, which has the same config. */
const patchableKinds = (segment: string): NodeKind[] => {
  const kind = kindOfSegment(segment);
  return kind === "llm" ? ["llm", "response"] : [kind];
};

const isMissing = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === "object" && !Array.isArray(value) && Object.keys(value as object).length === 0);

/**
 * PATCH of one node's config (§7.1): a partial merge; `{config: {...}}` or the same keys flat. The merged config is
 * checked whole, so ranges across fields hold. Returns the node and the resolved patch.
 */
export const updateNodeConfig = async ({
  projectId,
  flowName,
  segment,
  nodeId,
  body,
  resolve,
}: {
  projectId: string;
  flowName: string;
  segment: string;
  nodeId: string;
  body: Record<string, unknown>;
  /** Turns what a dataset PATCH names into stored fields (file names → ids), checked against the project. */
  resolve?: (kind: NodeKind, patch: Record<string, unknown>) => Promise<Record<string, unknown>>;
}) => {
  const kinds = patchableKinds(segment);
  const flow = await requireFlow(projectId, flowName);
  const kind = kinds[0]!;
  const label = NODE_KIND_DEFS[kind].label;
  const node = graphOf(flow).nodes.find((n) => n.id === nodeId && isNodeKind(n.type) && kinds.includes(n.type));
  if (!node) throw new AppError("NOT_FOUND", `${label} node with id '${nodeId}' not found in flow '${flowName}'`);
  const raw = "config" in body ? body.config : body;
  if (isMissing(raw) || typeof raw !== "object" || Array.isArray(raw))
    throw new AppError("BAD_REQUEST", "Invalid input: config is required");
  const nodeKind = node.type as NodeKind;
  const def = NODE_KIND_DEFS[nodeKind];
  for (const field of def.requiredOnPatch) {
    if (!(field in (raw as object))) throw new AppError("BAD_REQUEST", `Invalid input: ${field} is required`);
  }
  const known = Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).filter(([k]) => k in def.fields.shape),
  );
  if (Object.keys(known).length === 0) throw new AppError("BAD_REQUEST", "Invalid input: config is required");
  let patch = def.fields.partial().parse(known) as Record<string, unknown>;
  if (resolve) patch = await resolve(nodeKind, patch);
  if (typeof patch.model === "string") await assertNodeModel(projectId, patch.model);
  def.config.parse({ ...def.defaults, ...node.data.config, ...patch });

  await mutateDraft(flow.id, (current) => {
    const graph = graphOf(current);
    const target = graph.nodes.find((n) => n.id === nodeId);
    if (!target) return null;
    target.data.config = { ...def.defaults, ...target.data.config, ...patch };
    return {
      graph,
      nodeState: markChanged(statesOf(current), graph, nodeId),
      status: current.status === "New" ? "NotDeployed" : undefined,
    };
  });
  const message =
    nodeKind === "graph-rag"
      ? "Graph RAG node configuration updated successfully"
      : `${def.label} node '${nodeId}' updated successfully`;
  return { success: true, message, node_id: nodeId };
};
