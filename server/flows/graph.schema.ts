import { z } from "zod";

/**
 * The stored graph of a flow (contract §2.9, §11.2). Isomorphic: zod only, so the editor validates with the same
 * schemas. Nodes carry what the user configured; run output (`data.result`) is kept apart and merged in for display,
 * and editor internals (measured, selected, dragging) are never stored.
 */

export const NODE_KINDS = [
  "dataset",
  "chunking",
  "retrieval",
  "reranking",
  "smart-rag",
  "graph-rag",
  "raptor-rag",
  "llm",
  "response",
] as const;
export const NodeKind = z.enum(NODE_KINDS);
export type NodeKind = z.infer<typeof NodeKind>;
export const isNodeKind = (value: unknown): value is NodeKind => (NODE_KINDS as readonly unknown[]).includes(value);

/** `<kind>-<13 digits>`: the kind and the creation time in milliseconds. */
export const nodeIdPattern = (kind: NodeKind) => new RegExp(`^${kind}-\\d{13}$`);
export const newNodeId = (kind: NodeKind, at = Date.now()) => `${kind}-${String(at).padStart(13, "0").slice(-13)}`;

/** Flow names are DNS labels, since the host form puts them in front of `.flows.<host>` (contract §2.8). */
export const FLOW_NAME_RULE = "Flow names use a-z, 0-9 and '-', 1 to 63 characters, not starting or ending with '-'";
export const FlowName = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { message: FLOW_NAME_RULE });

export const GraphNode = z.object({
  id: z.string().min(1).max(100),
  type: z.string(),
  position: z.object({ x: z.number(), y: z.number() }).default({ x: 0, y: 0 }),
  style: z.object({ height: z.number().int(), width: z.number().int() }).default({ height: 80, width: 240 }),
  data: z.object({
    name: z.string().max(200),
    config: z.record(z.string(), z.unknown()).default({}),
  }),
});
export type GraphNode = z.infer<typeof GraphNode>;

export const GraphEdge = z.object({ source: z.string(), target: z.string() });
export type GraphEdge = z.infer<typeof GraphEdge>;

export const Graph = z.object({
  nodes: z.array(GraphNode).max(200),
  edges: z.array(GraphEdge).max(1000),
});
export type Graph = z.infer<typeof Graph>;

/** Prompts of llm and response nodes: `{context}` and `{query}` are filled at run time (contract §2.11). */
export const Prompt = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { message: "Prompt ids use letters, digits, '_', '.' and '-' (1 to 100)" }),
  name: z.string().min(1).max(200),
  text: z.string().min(1).max(20_000),
});
export type Prompt = z.infer<typeof Prompt>;

export const DEFAULT_PROMPT: Prompt = {
  id: "default_retrieval_prompt",
  name: "Default RAG prompt",
  text:
    "Answer the question using only the context below. Cite the passages you use as [1], [2], ... by their " +
    "numbers. If the context does not contain the answer, say that you do not know.\n\nContext:\n{context}\n\n" +
    "Question: {query}",
};

/** Flags every node result carries (contract §2.9, §4.4). */
export type NodeFlags = {
  updated: boolean;
  processing: boolean;
  waiting: boolean;
  has_error: boolean;
  updatedMetrics: boolean;
  lastRun?: string;
};
