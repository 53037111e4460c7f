"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { useParams } from "next/navigation";
import { memo } from "react";
import { answeringModel, useProjectModels } from "@/components/models/use-project-models";
import { cn } from "@/components/ui/cn";
import { isNodeKind } from "@/server/flows/graph.schema";
import { NODE_KIND_DEFS } from "@/server/flows/node-kinds.schema";
import type { NodeResult } from "@/server/flows/node-results";
import type { EditorNode } from "./graph-mapping";
import { labelOf } from "./graph-rules";
import { CATEGORY_TONE, NODE_UI } from "./node-registry";
import { flowDirection, handleSides } from "./placement";
import { useEditor } from "./store";

/**
 * One line about the node's configuration, so the canvas reads without opening every node. `answering`: the model
 * that will answer an llm or response node (never a stored name nothing serves), once the project's models loaded.
 */
export const configSummary = (kind: string, config: Record<string, unknown>, answering?: string): string => {
  switch (kind) {
    case "dataset": {
      const files = (config.files as string[] | undefined) ?? [];
      return files.length ? (files.length === 1 ? files[0]! : `${files.length} files`) : "No files";
    }
    case "chunking":
      return `${String(config.chunkingSplitter)} · ${String(config.chunkSize)}/${String(config.chunkOverlap)}`;
    case "retrieval":
      return `${String(config.searchType)} · top ${String(config.topK)}`;
    case "llm":
    case "response":
      return `${answering ?? "…"} · t=${String(config.temperature)}`;
    default:
      return config.topK === null || config.topK === undefined ? "keeps all" : `top ${String(config.topK)}`;
  }
};

const COUNTER_LABELS: Record<string, string> = {
  totalDocuments: "docs",
  totalChunks: "chunks",
  totalRetrievals: "runs",
  totalReranked: "reranked",
  totalProcessed: "runs",
  totalRetrieved: "retrieved",
  totalResponses: "answers",
  avgProcessingTime: "s avg",
  totalEntities: "entities",
  totalRelationships: "relationships",
  totalCommunities: "communities",
  treeLevels: "levels",
  totalSummaries: "summaries",
};

/** Counters that say what a node built, shown before its run counts: they are what tells a built index apart. */
const BUILT_FIRST = ["totalEntities", "totalRelationships", "totalCommunities", "treeLevels", "totalSummaries"];

/** Up to two counters for the node's footer, the built index's counts first. */
const footerCounters = (fields: readonly string[], result: Result) =>
  [...fields]
    .sort((a, b) => Number(BUILT_FIRST.includes(b)) - Number(BUILT_FIRST.includes(a)))
    .filter((f) => f in COUNTER_LABELS && typeof result?.counters[f] === "number")
    .slice(0, 2)
    .map((f) => `${String(result!.counters[f])} ${COUNTER_LABELS[f]}`);

/** The quality metrics of llm/response nodes (their latest evaluation), abbreviated for the canvas. */
const QUALITY = [
  ["contextualPrecision", "P", "Context precision"],
  ["contextualRecall", "R", "Context recall"],
  ["answerRelevancy", "AR", "Answer relevancy"],
  ["faithfulness", "F", "Faithfulness"],
] as const;

const LIGHT_RING = {
  running: "ring-2 ring-sky-500 animate-pulse",
  done: "ring-2 ring-emerald-500",
  error: "ring-2 ring-red-500",
} as const;

type Result = NodeResult | undefined;

const SIDE = { top: Position.Top, bottom: Position.Bottom, left: Position.Left, right: Position.Right } as const;

/** The node's state as the server's results flag it: failed, processing, outdated or up to date. */
const resultFlag = (result: Result) =>
  result?.hasError
    ? { text: "Error", tone: "text-red-700 dark:text-red-300" }
    : result?.processing
      ? { text: "Processing", tone: "text-sky-700 dark:text-sky-300" }
      : result?.waiting || result?.updated === false
        ? { text: "Outdated", tone: "text-amber-700 dark:text-amber-300" }
        : result?.updated
          ? { text: "Up to date", tone: "text-emerald-700 dark:text-emerald-300" }
          : null;

/** The latest evaluation's metrics, marked stale when the node changed since. */
const QualityMetrics = ({ result }: { result: Result }) => (
  <div
    aria-label="Quality metrics"
    title={
      result?.updatedMetrics
        ? "Latest evaluation (Evaluate tab)"
        : "Latest evaluation, made before this node, its upstream or the serving revision changed"
    }
    className="flex items-center gap-2 border-t border-border px-3 py-1 font-mono text-[11px] text-muted-foreground"
  >
    {QUALITY.map(([key, short, label]) => (
      <span key={key} aria-label={label}>
        {short} {typeof result?.counters[key] === "number" ? result.counters[key].toFixed(2) : "—"}
      </span>
    ))}
    {!result?.updatedMetrics && (
      <span className="ml-auto font-sans font-medium text-amber-700 dark:text-amber-300">stale</span>
    )}
  </div>
);

const FlowNodeView = ({ id, data, selected }: NodeProps<EditorNode>) => {
  const issues = useEditor((s) => s.issues[id]);
  const result = useEditor((s) => s.results[id]);
  const light = useEditor((s) => s.lights[id]);
  const readOnly = useEditor((s) => s.readOnly);
  const known = isNodeKind(data.kind);
  const ui = known ? NODE_UI[data.kind as keyof typeof NODE_UI] : null;
  const def = known ? NODE_KIND_DEFS[data.kind as keyof typeof NODE_KIND_DEFS] : null;
  const counters = def ? footerCounters(def.resultFields, result) : [];
  const sides = useEditor((s) => handleSides(flowDirection(s.nodes, s.edges)));
  const quality =
    (data.kind === "llm" || data.kind === "response") && QUALITY.some(([k]) => typeof result?.counters[k] === "number");
  const flag = resultFlag(result);
  const { projectId } = useParams<{ projectId?: string }>();
  const models = useProjectModels(projectId);
  const answering = models.data ? answeringModel(models.data, "chat", data.config.model).label : undefined;
  return (
    <div
      data-run-state={light ?? "idle"}
      data-problems={issues?.length ?? 0}
      className={cn(
        "w-60 rounded-lg border bg-card text-left shadow-sm transition-shadow",
        selected ? "border-primary shadow-md" : "border-border",
        issues?.length && !light ? "border-red-400 dark:border-red-700" : "",
        light && LIGHT_RING[light],
      )}
    >
      {def && def.upstream.length > 0 && (
        <Handle
          type="target"
          position={SIDE[sides.target]}
          isConnectable={!readOnly}
          className="!size-3 !border-2 !border-card !bg-slate-400"
        />
      )}
      <div className="flex items-start gap-2.5 px-3 pt-2.5">
        <span
          aria-hidden="true"
          className={cn(
            "mt-0.5 grid size-8 shrink-0 place-items-center rounded-md text-xs font-bold",
            ui ? CATEGORY_TONE[ui.category] : "bg-muted",
          )}
        >
          {ui?.icon ?? "?"}
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold">{data.name || labelOf(data.kind)}</p>
          <p className="truncate text-xs text-muted-foreground">
            {labelOf(data.kind)} · {configSummary(data.kind, data.config, answering)}
          </p>
        </div>
        {!!issues?.length && (
          <span
            role="img"
            aria-label={`${issues.length} problem${issues.length === 1 ? "" : "s"}`}
            title={issues.join("\n")}
            className="grid size-5 shrink-0 place-items-center rounded-full bg-red-600 text-[11px] font-bold text-white"
          >
            {issues.length}
          </span>
        )}
      </div>
      <div className="mt-1.5 flex min-h-6 items-center gap-2 border-t border-border px-3 py-1 text-[11px]">
        {flag && <span className={cn("font-medium", flag.tone)}>{flag.text}</span>}
        {counters.map((c) => (
          <span key={c} className="text-muted-foreground">
            {c}
          </span>
        ))}
        {light === "running" && <span className="ml-auto text-sky-700 dark:text-sky-300">running…</span>}
      </div>
      {quality && <QualityMetrics result={result} />}
      {def && def.downstream.length > 0 && (
        <Handle
          type="source"
          position={SIDE[sides.source]}
          isConnectable={!readOnly}
          className="!size-3 !border-2 !border-card !bg-slate-400"
        />
      )}
    </div>
  );
};

export const FlowNode = memo(FlowNodeView);

/** Defined once at module scope: React Flow re-mounts every node when this object changes. */
export const NODE_TYPES = { flow: FlowNode };
