import { ZodError } from "zod";
import { Graph, isNodeKind, nodeIdPattern, type NodeKind } from "./graph.schema";
import { NODE_KIND_DEFS } from "./node-kinds";

/**
 * Checks a flow graph. Pure (no database): what it needs to know about the project (sources' statuses, prompt ids)
 * is passed in. "save" checks what any stored draft must satisfy; "run" adds what a deploy or a run needs: a
 * response node reached from a dataset, datasets with completed files, known prompts, kinds that can run.
 * Used by the editor for inline badges, on save, on deploy and at the start of a run.
 */

export type GraphIssue = { nodeId?: string; message: string };
export type GraphCheck = { ok: true } | { ok: false; errors: GraphIssue[]; noResponseNode: boolean };

export type GraphContext = {
  /** Status of each source the datasets name, by id (missing: the source does not exist). */
  sourceStatus?: (fileId: string) => string | undefined;
  promptIds?: ReadonlySet<string>;
};

const configMessage = (error: unknown) =>
  error instanceof ZodError ? (error.issues[0]?.message ?? "invalid configuration") : String(error);

/** Nodes in an order where every node comes after all its upstream nodes; null when the edges have a cycle. */
export const topologicalOrder = (ids: string[], edges: { source: string; target: string }[]): string[] | null => {
  const incoming = new Map(ids.map((id) => [id, 0]));
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) {
    incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
    out.get(e.source)?.push(e.target);
  }
  const ready = ids.filter((id) => incoming.get(id) === 0);
  const order: string[] = [];
  while (ready.length) {
    const id = ready.shift()!;
    order.push(id);
    for (const next of out.get(id) ?? []) {
      incoming.set(next, incoming.get(next)! - 1);
      if (incoming.get(next) === 0) ready.push(next);
    }
  }
  return order.length === ids.length ? order : null;
};

export const validateGraph = (input: unknown, stage: "save" | "run", context: GraphContext = {}): GraphCheck => {
  const errors: GraphIssue[] = [];
  const fail = (): GraphCheck => ({
    ok: false,
    errors,
    noResponseNode: errors.some((e) => e.message === NO_RESPONSE_NODE),
  });
  const parsed = Graph.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    errors.push({ message: `graph.${issue.path.join(".")}: ${issue.message}` });
    return fail();
  }
  const { nodes, edges } = parsed.data;
  const kinds = new Map<string, NodeKind>();
  for (const node of nodes) {
    if (!isNodeKind(node.type)) {
      errors.push({ nodeId: node.id, message: `Unknown node type '${node.type}'` });
      continue;
    }
    if (kinds.has(node.id)) errors.push({ nodeId: node.id, message: `Duplicate node id '${node.id}'` });
    else if (!nodeIdPattern(node.type).test(node.id))
      errors.push({ nodeId: node.id, message: `Node id '${node.id}' must be '${node.type}-' followed by 13 digits` });
    kinds.set(node.id, node.type);
    try {
      NODE_KIND_DEFS[node.type].config.parse({ ...NODE_KIND_DEFS[node.type].defaults, ...node.data.config });
    } catch (error) {
      errors.push({ nodeId: node.id, message: `Node '${node.id}': ${configMessage(error)}` });
    }
  }
  const seen = new Set<string>();
  for (const edge of edges) {
    const from = kinds.get(edge.source);
    const to = kinds.get(edge.target);
    if (!from || !to) {
      errors.push({ message: `Edge ${edge.source} -> ${edge.target} joins a node that does not exist` });
      continue;
    }
    const key = `${edge.source}>${edge.target}`;
    if (seen.has(key)) errors.push({ message: `Edge ${edge.source} -> ${edge.target} is listed twice` });
    seen.add(key);
    if (!NODE_KIND_DEFS[from].downstream.includes(to)) {
      errors.push({
        nodeId: edge.target,
        message: `A ${from} node cannot feed a ${to} node (${key.replace(">", " -> ")})`,
      });
    }
  }
  if (errors.length) return fail();
  const ids = nodes.map((n) => n.id);
  if (!topologicalOrder(ids, edges)) {
    errors.push({ message: "The graph has a cycle" });
    return fail();
  }
  if (stage === "save") return { ok: true };

  const responses = nodes.filter((n) => n.type === "response");
  if (responses.length === 0) {
    errors.push({ message: NO_RESPONSE_NODE });
    return fail();
  }
  if (responses.length > 1) errors.push({ message: "A flow has exactly one response node" });
  const upstreamOf = (id: string) => edges.filter((e) => e.target === id).map((e) => e.source);
  const ancestors = new Set<string>();
  const walk = (id: string) => {
    for (const up of upstreamOf(id)) {
      if (ancestors.has(up)) continue;
      ancestors.add(up);
      walk(up);
    }
  };
  walk(responses[0]!.id);
  if (![...ancestors].some((id) => kinds.get(id) === "dataset")) {
    errors.push({ nodeId: responses[0]!.id, message: "the response node is not connected to a dataset node" });
  }
  for (const node of nodes) {
    const kind = node.type as NodeKind;
    const def = NODE_KIND_DEFS[kind];
    const onPath = ancestors.has(node.id) || node.type === "response";
    if (onPath && def.upstream.length && upstreamOf(node.id).length === 0) {
      errors.push({ nodeId: node.id, message: `${def.label} node '${node.id}' has no upstream node` });
    }
    if (kind === "dataset" && onPath) checkDataset(node.id, node.data.config, context, errors);
    if ((kind === "llm" || kind === "response") && context.promptIds) {
      const promptId = (node.data.config.promptId as string | undefined) ?? "default_retrieval_prompt";
      if (!context.promptIds.has(promptId)) errors.push({ nodeId: node.id, message: `Prompt '${promptId}' not found` });
    }
  }
  return errors.length ? fail() : { ok: true };
};

export const NO_RESPONSE_NODE = "No Response Node found in flow";

const checkDataset = (nodeId: string, config: Record<string, unknown>, context: GraphContext, errors: GraphIssue[]) => {
  const fileIds = (config.fileIds as string[] | undefined) ?? [];
  if (fileIds.length === 0) {
    errors.push({ nodeId, message: `dataset node '${nodeId}' has no files` });
    return;
  }
  if (!context.sourceStatus) return;
  const missing = fileIds.filter((id) => context.sourceStatus!(id) === undefined);
  if (missing.length) errors.push({ nodeId, message: `dataset node '${nodeId}' names sources that no longer exist` });
  const names = (config.files as string[] | undefined) ?? [];
  const unfinished = fileIds
    .map((id, i) => ({ id, name: names[i] ?? id, status: context.sourceStatus!(id) }))
    .filter((f) => f.status !== undefined && f.status !== "Completed");
  if (unfinished.length) {
    errors.push({
      nodeId,
      message: `files of dataset node '${nodeId}' are not Completed: ${unfinished.map((f) => `${f.name} (${f.status})`).join(", ")}`,
    });
  }
};
