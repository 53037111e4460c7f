/**
 * The node-kind registry as the browser sees it: the same zod schemas, defaults and allowed connections the server's
 * PATCH validation, graph check and deploy use (node-kinds/ imports zod and other isomorphic modules only). The flow
 * editor derives its palette, its connection rules and its config forms from here instead of a copy.
 */
export { kindDef, NODE_KIND_DEFS, type NodeKindDef } from "./node-kinds";
export type { ChunkingConfig, DatasetConfig, LlmConfig, RetrievalConfig } from "./node-kinds";
