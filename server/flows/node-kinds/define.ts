import { z } from "zod";
import type { NodeKind } from "../graph.schema";

/**
 * One node kind, isomorphic (the editor's forms reuse it): its config fields with the contract's defaults and ranges
 * (§2.10), which kinds may feed it and which it may feed, and the extra fields of its `data.result`. What a kind does
 * when it runs is in ../node-operations.ts, keyed by the same kinds.
 */
export type NodeKindDef<Shape extends z.ZodRawShape = z.ZodRawShape> = {
  kind: NodeKind;
  /** "Retrieval", "Smart RAG", ...: used in messages (contract §2.12, §7.4). */
  label: string;
  /** Each field on its own, every one optional: what a PATCH may carry. */
  fields: z.ZodObject<Shape>;
  defaults: z.infer<z.ZodObject<Shape>>;
  /** The whole configuration, with checks across fields. */
  config: z.ZodType<z.infer<z.ZodObject<Shape>>>;
  /** Fields a PATCH must name (retrieval's searchType, §7.1). */
  requiredOnPatch: string[];
  upstream: readonly NodeKind[];
  downstream: readonly NodeKind[];
  /** Counters and metrics of `data.result` beside the common flags. */
  resultFields: readonly string[];
  /** False while the kind can be stored and edited but not run (graph-rag and raptor-rag until their issue). */
  runnable: boolean;
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
  runnable?: boolean;
}): NodeKindDef<Shape> => {
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
    config: config as unknown as z.ZodType<z.infer<z.ZodObject<Shape>>>,
    requiredOnPatch: def.requiredOnPatch ?? [],
    upstream: def.upstream,
    downstream: def.downstream,
    resultFields: def.resultFields,
    runnable: def.runnable ?? true,
  };
};

export const RAG_UPSTREAM = ["dataset", "chunking"] as const;
export const RETRIEVERS = ["retrieval", "smart-rag", "graph-rag", "raptor-rag"] as const;
