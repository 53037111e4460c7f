import { createHash } from "node:crypto";
import type { Graph, Prompt } from "./graph.schema";
import { reachable } from "./node-state";

/**
 * What a node's metrics were computed for: the node and everything upstream of it (kinds, configs, the edges between
 * them and the prompts they use). Equal fingerprints in a run and in today's draft mean the metrics still describe
 * the node as configured; any change to the node or upstream of it changes the fingerprint.
 */

const sorted = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, sorted(v)]),
    );
  return value;
};

const sha = (value: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(sorted(value)))
    .digest("hex");

// Dataset nodes keep file names beside their ids for display; only the ids decide what is searched.
const configOf = (type: string, config: Record<string, unknown>) =>
  type === "dataset" ? { fileIds: config.fileIds ?? [] } : config;

export const nodeFingerprint = (graph: Graph, nodeId: string, prompts: Prompt[] = []) => {
  const ids = new Set([nodeId, ...reachable(graph, nodeId, "up")]);
  const nodes = graph.nodes
    .filter((n) => ids.has(n.id))
    .map((n) => ({ id: n.id, type: n.type, config: configOf(n.type, n.data.config) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const edges = graph.edges
    .filter((e) => ids.has(e.source) && ids.has(e.target))
    .map((e) => `${e.source}>${e.target}`)
    .sort();
  const used = new Set(nodes.map((n) => n.config.promptId).filter(Boolean));
  const texts = prompts.filter((p) => used.has(p.id)).map((p) => ({ id: p.id, text: p.text }));
  return sha({ nodes, edges, prompts: texts });
};

/** The whole evaluated graph's hash: runs of the same configuration share it. */
export const graphHash = (graph: Graph, prompts: Prompt[]) =>
  sha({
    nodes: graph.nodes.map((n) => ({ id: n.id, type: n.type, config: configOf(n.type, n.data.config) })),
    edges: graph.edges,
    prompts,
  });

/** Nodes the quality metrics are computed for. */
export const isGeneratorKind = (type: string) => type === "llm" || type === "response";
