import { db } from "../db";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { resolveDatasetFiles } from "./datasets";
import { graphContext, RevisionSnapshot } from "./deploy";
import { DRAFT_CONFLICT } from "./editor.schema";
import { flowStatusLabel } from "./flow-status";
import type { Graph } from "./graph.schema";
import { graphOf, requireFlow, statesOf, type FlowRow } from "./service";
import { markChanged, type NodeStates } from "./node-state";
import { validateGraph, type GraphIssue } from "./validate-graph";
import { flowUrl } from "./flow-url";
import { metricsOf, nodeResultOf, type NodeResult } from "./node-results";

/**
 * What the dashboard's flow editor reads and writes: the draft with its node results, whole-draft saves guarded by
 * the draft's version, the graph check behind the checklist, and the revisions a deploy made. Deployed revisions
 * are never written here: a save or a restore only replaces the draft.
 */

const latestRevision = (flowId: string) =>
  db.flowRevision.findFirst({ where: { flowId }, orderBy: { number: "desc" } });

/** The flows of a project for the list page: status, the serving revision's number and the draft's size. */
export const listEditorFlows = async (projectId: string) => {
  const flows = await db.flow.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
  const active = await db.flowRevision.findMany({
    where: { id: { in: flows.flatMap((f) => (f.activeRevisionId ? [f.activeRevisionId] : [])) } },
    select: { id: true, number: true },
  });
  const numberOf = new Map(active.map((r) => [r.id, r.number]));
  return flows.map((f) => ({
    name: f.name,
    description: f.description,
    status: flowStatusLabel(f.status),
    nodes: graphOf(f).nodes.length,
    deployedRevision: f.activeRevisionId ? (numberOf.get(f.activeRevisionId) ?? null) : null,
    updatedAt: f.updatedAt,
  }));
};

/** The draft as the editor opens it: graph, version, node results (flags and counters), deploy state, URL. */
export const editorView = async (flow: FlowRow, origin: string) => {
  const graph = graphOf(flow);
  const stats = await db.flowNodeStat.findMany({ where: { flowId: flow.id } });
  const statOf = new Map(stats.map((s) => [s.nodeId, s]));
  const states = statesOf(flow);
  const metrics = await metricsOf(flow);
  const results: Record<string, NodeResult> = Object.fromEntries(
    graph.nodes.flatMap((n) => {
      const result = nodeResultOf(n, states[n.id], statOf.get(n.id), metrics[n.id]);
      return result ? [[n.id, result]] : [];
    }),
  );
  const [latest, active] = await Promise.all([
    latestRevision(flow.id),
    flow.activeRevisionId ? db.flowRevision.findUnique({ where: { id: flow.activeRevisionId } }) : null,
  ]);
  return {
    name: flow.name,
    description: flow.description,
    status: flowStatusLabel(flow.status),
    draftVersion: flow.draftVersion,
    graph,
    results,
    activeRevision: active ? { id: active.id, number: active.number } : null,
    latestDeploy: latest && {
      id: latest.id,
      number: latest.number,
      status: latest.status,
      step: latest.step,
      progress: latest.progress,
      error: latest.error,
    },
    /** Absolute with PUBLIC_FLOWS_BASE; else the path form, which the browser puts after its own origin. */
    url: flowUrl(flow.name, origin),
  };
};

/** Node states after the draft changed: changed nodes and everything downstream of them are outdated. */
const statesAfter = (states: NodeStates, before: Graph, after: Graph): NodeStates => {
  const ids = new Set(after.nodes.map((n) => n.id));
  let next: NodeStates = Object.fromEntries(Object.entries(states).filter(([id]) => ids.has(id)));
  const upstream = (g: Graph, id: string) =>
    g.edges
      .filter((e) => e.target === id)
      .map((e) => e.source)
      .sort()
      .join(",");
  for (const node of after.nodes) {
    const old = before.nodes.find((n) => n.id === node.id);
    const changed =
      !old ||
      old.type !== node.type ||
      JSON.stringify(sortKeys(old.data.config)) !== JSON.stringify(sortKeys(node.data.config)) ||
      upstream(before, node.id) !== upstream(after, node.id);
    if (changed) next = markChanged(next, after, node.id);
  }
  return next;
};

const sortKeys = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));

/** Dataset nodes name their files by id in the editor; the names stored beside them are read from the project. */
const withFileNames = async (projectId: string, graph: Graph): Promise<Graph> => {
  const nodes = [];
  for (const node of graph.nodes) {
    const ids = node.data.config.fileIds;
    if (node.type !== "dataset" || !Array.isArray(ids)) {
      nodes.push(node);
      continue;
    }
    const resolved = await resolveDatasetFiles(projectId, { fileIds: ids });
    nodes.push({ ...node, data: { ...node.data, config: { ...node.data.config, ...resolved } } });
  }
  return { nodes, edges: graph.edges };
};

/**
 * Replaces the draft with `graph` if the stored draft is still the one the editor started from. Node flags written
 * meanwhile by a run or a deploy do not count as a change of the draft (they bump `version`, not `draftVersion`),
 * and are kept.
 */
export const saveDraft = async ({
  projectId,
  name,
  graph: input,
  expectedVersion,
}: {
  projectId: string;
  name: string;
  graph: Graph;
  expectedVersion: number;
}) => {
  const flow = await requireFlow(projectId, name);
  const check = validateGraph(input, "save");
  if (!check.ok) throw new AppError("BAD_REQUEST", `Flow configuration is invalid: ${check.errors[0]!.message}`);
  const graph = await withFileNames(projectId, input);
  for (let attempt = 0, current = flow; attempt < 20; attempt++) {
    if (current.draftVersion !== expectedVersion) throw new AppError("CONFLICT", DRAFT_CONFLICT);
    const nodeState = statesAfter(statesOf(current), graphOf(current), graph);
    const status = current.status === "New" && graph.nodes.length > 0 ? "NotDeployed" : current.status;
    const { count } = await db.flow.updateMany({
      where: { id: current.id, version: current.version },
      data: {
        graph: graph as unknown as Prisma.InputJsonValue,
        nodeState: nodeState as unknown as Prisma.InputJsonValue,
        status,
        version: { increment: 1 },
        draftVersion: { increment: 1 },
      },
    });
    if (count === 1) return { draftVersion: expectedVersion + 1, graph };
    const reread = await db.flow.findUnique({ where: { id: flow.id } });
    if (!reread) throw new AppError("NOT_FOUND", `Flow with name ${name} not found`);
    current = reread;
  }
  throw new AppError("CONFLICT", DRAFT_CONFLICT);
};

/** The checklist: every problem that would stop a deploy, each with its node when it has one. */
export const checkDraft = async (projectId: string, graph: Graph): Promise<{ ok: boolean; issues: GraphIssue[] }> => {
  const context = await graphContext(projectId, graph);
  const check = validateGraph(graph, "run", context);
  return check.ok ? { ok: true, issues: [] } : { ok: false, issues: check.errors };
};

export const listRevisions = async (projectId: string, name: string) => {
  const flow = await requireFlow(projectId, name);
  const revisions = await db.flowRevision.findMany({ where: { flowId: flow.id }, orderBy: { number: "desc" } });
  return revisions.map((r) => ({
    id: r.id,
    number: r.number,
    status: r.status,
    deployedBy: r.deployedBy,
    description: r.toolDescription,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    error: r.error,
    serving: r.id === flow.activeRevisionId,
    nodes: RevisionSnapshot.safeParse(r.snapshot).data?.nodes.length ?? 0,
  }));
};

export const getRevision = async (projectId: string, name: string, revisionId: string) => {
  const flow = await requireFlow(projectId, name);
  const revision = await db.flowRevision.findFirst({ where: { id: revisionId, flowId: flow.id } });
  if (!revision) throw new AppError("NOT_FOUND", "Revision not found");
  const snapshot = RevisionSnapshot.parse(revision.snapshot);
  return { id: revision.id, number: revision.number, graph: { nodes: snapshot.nodes, edges: snapshot.edges } };
};

/** Copies a revision's graph into the draft (same node ids); the serving revision is not touched. */
export const restoreRevision = async ({
  projectId,
  name,
  revisionId,
  expectedVersion,
}: {
  projectId: string;
  name: string;
  revisionId: string;
  expectedVersion: number;
}) => {
  const { graph } = await getRevision(projectId, name, revisionId);
  return saveDraft({ projectId, name, graph, expectedVersion });
};
