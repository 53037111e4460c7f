import { db } from "../db";
import { withModelUsage } from "../providers/usage";
import { AppError, errorMessage } from "../errors";
import { logger } from "../logger";
import { ensureFlowChunkSet } from "./chunk-sets";
import { assertRunnable, graphContext, RevisionSnapshot } from "./deploy";
import type { Graph, Prompt } from "./graph.schema";
import { recordNodeStats } from "./node-stats";
import { listPrompts } from "./prompts";
import { FlowRunError, runGraph, type FlowEvent, type NodeOutcome, type RunResult } from "./run-graph";
import { graphOf, mutateDraft, requireFlow, statesOf } from "./service";
import { downstreamOf, markProcessed, markProcessing } from "./node-state";
import { validateGraph } from "./validate-graph";
import { listNodeViews } from "./node-results";

/** POST {flow_url} (the deployed revision), /simulate (the draft) and /nodes/simulate (contract §7.1, §7.2). */

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

/** What a streamed run is handed: its events as they happen, and the signal that stops it. */
export type RunEvents = { onEvent: (e: FlowEvent) => void; signal: AbortSignal };

/**
 * A run whose checks have passed (so a refusal is still a status, not an event), started by calling it; the
 * transport answers with its result as JSON or streams its events (public-api/v1/flows/run-response.ts).
 */
export type FlowRun = (events?: RunEvents) => Promise<RunResult>;

const execute =
  (exe: Execution, query: string): FlowRun =>
  async (events) => {
    let outcomes: NodeOutcome[] = [];
    try {
      const usage = { projectId: exe.projectId, cause: "flow_run" } as const;
      const result = await withModelUsage(usage, () => runGraph({ ...exe, query, ...events, measure: exe.draft }));
      outcomes = result.outcomes;
      return result;
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

const onDemandChunkSets =
  (projectId: string) =>
  async (_nodeId: string, config: Parameters<typeof ensureFlowChunkSet>[0]["config"], sourceIds: string[]) => {
    const ids: string[] = [];
    for (const sourceId of sourceIds) ids.push((await ensureFlowChunkSet({ projectId, sourceId, config })).id);
    return ids;
  };

export const runDeployedFlow = async (projectId: string, flowName: string, query: string): Promise<FlowRun> => {
  const flow = await requireFlow(projectId, flowName);
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
  return execute(
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
    query,
  );
};

export const simulateFlow = async (projectId: string, flowName: string, query: string): Promise<FlowRun> => {
  const flow = await requireFlow(projectId, flowName);
  if (!query.trim()) throw new AppError("BAD_REQUEST", "Invalid input: query is required");
  const graph = graphOf(flow);
  const { prompts } = await assertRunnable(projectId, graph, "Failed to simulate flow");
  return execute(
    { projectId, flowId: flow.id, graph, prompts, chunkSetsOf: onDemandChunkSets(projectId), draft: true },
    query,
  );
};

/** Processes one node with its current configuration, and what it affects downstream (no query: nothing is asked). */
export const simulateNode = async (projectId: string, flowName: string, nodeId: unknown) => {
  const flow = await requireFlow(projectId, flowName);
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
    const prompts = await listPrompts(projectId);
    const result = await withModelUsage({ projectId, cause: "flow_run" }, () =>
      runGraph({
        projectId,
        graph,
        prompts,
        query: "",
        targets: affected,
        chunkSetsOf: onDemandChunkSets(projectId),
        measure: true,
      }),
    );
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
  const nodes = await listNodeViews(updated!, graph.nodes.map((n) => n.type) as never);
  return { nodeId, updatedNodes: nodes.filter((n) => affected.includes(n.node.id)) };
};
