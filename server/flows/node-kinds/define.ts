import { z } from "zod";
import type { NodeKind } from "../graph.schema";

/**
 * One node kind, isomorphic (the editor's forms reuse it): its config fields with the contract's defaults and ranges
 * (§2.10), which kinds may feed it and which it may feed, and the counters of its result. What a kind does
 * when it runs is in ../node-operations.ts, keyed by the same kinds.
 */
export type NodeKindDef = {
  kind: NodeKind;
  /** "Retrieval", "Smart RAG", ...: used in messages (contract §2.12, §7.4). */
  label: string;
  /** Each field on its own, every one optional: what a PATCH may carry. */
  fields: z.ZodObject;
  defaults: Record<string, unknown>;
  /** The whole configuration, with checks across fields. */
  config: z.ZodType<Record<string, unknown>>;
  /** Fields a PATCH must name (retrieval's searchType, §7.1). */
  requiredOnPatch: string[];
  upstream: readonly NodeKind[];
  downstream: readonly NodeKind[];
  /** Counters and metrics of its node result beside the common flags (../node-results.ts), in camelCase. */
  resultFields: readonly string[];
};

export const defineKind = <Shape extends z.ZodRawShape>(def: {
  kind: NodeKind;
  label: string;
  fields: Shape;
  defaults: z.infer<z.ZodObject<Shape>>;
  refine?: (config: z.infer<z.ZodObject<Shape>>) => string | null;
  requiredOnPatch?: string[];
  upstream: readonly NodeKind[];
  downstream: readonly NodeKind[];
  resultFields: readonly string[];
}) => {
  const fields = z.object(def.fields);
  const config = fields.superRefine((value, ctx) => {
    const message = def.refine?.(value);
    if (message) ctx.addIssue({ code: "custom", message });
  });
  return {
    kind: def.kind,
    label: def.label,
    fields,
    defaults: def.defaults,
    config,
    requiredOnPatch: def.requiredOnPatch ?? [],
    upstream: def.upstream,
    downstream: def.downstream,
    resultFields: def.resultFields,
  };
};

export const RAG_UPSTREAM = ["dataset", "chunking"] as const;
export const RETRIEVERS = ["retrieval", "smart-rag", "graph-rag", "raptor-rag"] as const;
