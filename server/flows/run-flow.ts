import { z } from "zod";
import { db } from "../db";
import { AppError, errorMessage } from "../errors";
import { sseResponse, typedEventFrame } from "../http/sse";
import { logger } from "../logger";
import { ensureFlowChunkSet } from "./chunk-sets";
import { assertRunnable, graphContext, RevisionSnapshot } from "./deploy";
import type { Graph, Prompt } from "./graph.schema";
import { recordNodeStats } from "./node-stats";
import { listPrompts } from "./prompts";
import { FlowRunError, runGraph, type FlowEvent, type NodeOutcome } from "./run-graph";
import { graphOf, mutateDraft, requireFlow, statesOf } from "./service";
import { downstreamOf, markProcessed, markProcessing } from "./node-state";
import { validateGraph } from "./validate-graph";
import { listNodeDtos, toRunResponse } from "./wire-shapes";

/** POST {flow_url} (the deployed revision), /simulate (the draft) and /nodes/simulate (contract §7.1, §7.2). */

const page = z.coerce
  .number({ error: "page must be an integer of at least 1" })
  .int()
  .min(1, { error: "page must be an integer of at least 1" });
const pageSize = z.coerce
  .number({ error: "page_size must be an integer between 1 and 100" })
  .int({ error: "page_size must be an integer between 1 and 100" })
  .min(1, { error: "page_size must be an integer between 1 and 100" })
  .max(100, { error: "page_size must be an integer between 1 and 100" });

export const RunFlowInput = z.object({
  query: z.string({ error: "query must be a string" }).max(10_000).default(""),
  page: page.default(1),
  page_size: pageSize.default(10),
  stream: z.boolean({ error: "stream must be true or false" }).default(false),
});
export type RunFlowInput = z.infer<typeof RunFlowInput>;

type Execution = {
  projectId: string;
  flowId: string;
  graph: Graph;
  prompts: Prompt[];
  chunkSetsOf: Parameters<typeof runGraph>[0]["chunkSetsOf"];
  nodeIndexOf?: Parameters<typeof runGraph>[0]["nodeIndexOf"];
  /** The draft's flags follow a simulation (the editor lights nodes up); a deployed run only counts. */
  draft: boolean;
};

const outcomesOf = (error: unknown): NodeOutcome[] => (error as { outcomes?: NodeOutcome[] }).outcomes ?? [];

const execute = async (
  exe: Execution,
  input: RunFlowInput,
  events?: { onEvent: (e: FlowEvent) => void; signal: AbortSignal },
) => {
  let outcomes: NodeOutcome[] = [];
  try {
    const result = await runGraph({ ...exe, query: input.query, ...events, measure: exe.draft });
    outcomes = result.outcomes;
    return toRunResponse(result, input.page, input.page_size);
  } catch (error) {
    outcomes = outcomesOf(error);
    if (error instanceof FlowRunError) throw new AppError("INTERNAL", `Failed to run flow: ${error.message}`);
    throw error;
  } finally {
    await recordNodeStats(exe, outcomes).catch((e: unknown) => logger.warn({ err: e }, "flow stats not written"));
    if (exe.draft) {
      await mutateDraft(exe.flowId, (flow) => ({ nodeState: markProcessed(statesOf(flow), outcomes) })).catch(
        (e: unknown) => logger.warn({ err: e }, "flow flags not written"),
      );
    }
  }
};

type RunStreamEvent = FlowEvent | { type: "done"; response: unknown } | { type: "error"; detail: string };

/**
 * A plain JSON answer, or (stream) server-sent events: node events and tokens as they happen, then `done`. A client
 * that goes away stops the run before its next node (and its model call in flight).
 */
const respond = async (exe: Execution, input: RunFlowInput) => {
  if (!input.stream) return execute(exe, input);
  return sseResponse<RunStreamEvent>({
    produce: async (send, signal) => {
      try {
        send({ type: "done", response: await execute(exe, input, { onEvent: send, signal }) });
      } catch (error) {
        const detail = error instanceof AppError ? error.message : `Failed to run flow: ${errorMessage(error)}`;
        send({ type: "error", detail });
      }
    },
    frame: typedEventFrame,
    headers: { "cache-control": "no-store" },
  });
};

const onDemandChunkSets =
  (projectId: string) =>
  async (_nodeId: string, config: Parameters<typeof ensureFlowChunkSet>[0]["config"], sourceIds: string[]) => {
    const ids: string[] = [];
    for (const sourceId of sourceIds) ids.push((await ensureFlowChunkSet({ projectId, sourceId, config })).id);
    return ids;
  };

export const runDeployedFlow = async (projectId: string, flowName: string, input: RunFlowInput) => {
  const flow = await requireFlow(projectId, flowName, "named");
  const revision = flow.activeRevisionId
    ? await db.flowRevision.findFirst({ where: { id: flow.activeRevisionId, projectId } })
    : null;
  if (!revision) throw new AppError("NOT_FOUND", `Flow ${flowName} is not deployed`);
  const snapshot = RevisionSnapshot.parse(revision.snapshot);
  // Sources may have gone since the deploy: the revision is checked again before it runs.
  const check = validateGraph(snapshot, "run", await graphContext(projectId, snapshot));
  if (!check.ok) throw new AppError("INTERNAL", `Failed to run flow: ${check.errors[0]!.message}`);
  const chunkSets = revision.chunkSets as Record<string, string[]>;
  const nodeIndexes = revision.nodeIndexes as Record<string, string>;
  return respond(
    {
      projectId,
      flowId: flow.id,
      graph: snapshot,
      prompts: snapshot.prompts,
      chunkSetsOf: async (nodeId) => chunkSets[nodeId] ?? [],
      nodeIndexOf: async (nodeId) => {
        const id = nodeIndexes[nodeId];
        if (!id) throw new AppError("INTERNAL", `Failed to run flow: node '${nodeId}' has no index in this revision`);
        return id;
      },
      draft: false,
    },
    input,
  );
};

export const simulateFlow = async (projectId: string, flowName: string, input: RunFlowInput) => {
  const flow = await requireFlow(projectId, flowName, "named");
  if (!input.query.trim()) throw new AppError("BAD_REQUEST", "Invalid input: query is required");
  const graph = graphOf(flow);
  const { prompts } = await assertRunnable(projectId, graph, "Failed to simulate flow");
  return respond(
    { projectId, flowId: flow.id, graph, prompts, chunkSetsOf: onDemandChunkSets(projectId), draft: true },
    input,
  );
};

/** Processes one node with its current configuration, and what it affects downstream (no query: nothing is asked). */
export const simulateNode = async (projectId: string, flowName: string, nodeId: unknown) => {
  const flow = await requireFlow(projectId, flowName, "short");
  if (typeof nodeId !== "string" || !nodeId) throw new AppError("BAD_REQUEST", "Invalid input: node_id is required");
  const graph = graphOf(flow);
  if (!graph.nodes.some((n) => n.id === nodeId))
    throw new AppError("NOT_FOUND", `Node with id '${nodeId}' not found in flow '${flowName}'`);
  const check = validateGraph(graph, "save");
  if (!check.ok) throw new AppError("BAD_REQUEST", `Flow configuration is invalid: ${check.errors[0]!.message}`);
  const affected = [nodeId, ...downstreamOf(graph, nodeId)];
  await mutateDraft(flow.id, (f) => ({ nodeState: markProcessing(statesOf(f), affected) }));
  let outcomes: NodeOutcome[] = [];
  try {
    const result = await runGraph({
      projectId,
      graph,
      prompts: await listPrompts(projectId),
      query: "",
      targets: affected,
      chunkSetsOf: onDemandChunkSets(projectId),
      measure: true,
    });
    outcomes = result.outcomes;
  } catch (error) {
    outcomes = outcomesOf(error);
    const ran = new Set(outcomes.map((o) => o.id));
    outcomes.push(
      ...affected
        .filter((id) => !ran.has(id))
        .map((id) => ({ id, ok: false, ms: 0, itemsOut: 0, responseChars: 0, error: "an upstream node failed" })),
    );
    await mutateDraft(flow.id, (f) => ({ nodeState: markProcessed(statesOf(f), outcomes) }));
    throw new AppError("INTERNAL", `Failed to simulate node: ${errorMessage(error)}`);
  }
  const updated = await mutateDraft(flow.id, (f) => ({ nodeState: markProcessed(statesOf(f), outcomes) }));
  const nodes = await listNodeDtos(updated!, graph.nodes.map((n) => n.type) as never);
  return {
    success: true,
    message: `Node '${nodeId}' simulated successfully`,
    updated_nodes: nodes.filter((n) => affected.includes(n.id)).map((n) => ({ id: n.id, type: n.type, data: n.data })),
  };
};
