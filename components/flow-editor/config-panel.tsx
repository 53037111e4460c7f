"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { EmptyState } from "@/components/ui/states";
import { isNodeKind } from "@/server/flows/graph.schema";
import { NODE_KIND_DEFS } from "@/server/flows/node-kinds.schema";
import { labelOf } from "./graph-rules";
import { NODE_UI } from "./node-registry";
import { useEditor } from "./store";

const METRIC_LABELS: Record<string, string> = {
  totalDocuments: "Documents",
  totalChunks: "Chunks",
  totalRetrievals: "Retrievals",
  totalReranked: "Passages reranked",
  totalProcessed: "Runs",
  totalRetrieved: "Passages retrieved",
  totalResponses: "Answers",
  avgResponseLength: "Average answer length (characters)",
  avgProcessingTime: "Average time (s)",
  contextualPrecision: "Contextual precision",
  contextualRecall: "Contextual recall",
  answerRelevancy: "Answer relevancy",
  faithfulness: "Faithfulness",
  totalEntities: "Entities",
  totalRelationships: "Relationships",
  totalCommunities: "Communities",
  treeLevels: "Tree levels",
  totalClusters: "Clusters",
  totalSummaries: "Summaries",
  clusteringRatio: "Clusters per chunk",
  summarizationRatio: "Summaries per cluster",
  treeDensity: "Summaries per level",
};

/** A counter's label; a counter without one reads as words ("totalFooBar" → "Total foo bar"), never as a raw key. */
const metricLabel = (field: string) =>
  METRIC_LABELS[field] ??
  field
    .replace(/[_-]/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());

/** The selected node: its name, its kind's config form, the server's problems with it, and its counters. */
export const ConfigPanel = ({ projectId, problemText }: { projectId: string; problemText: (m: string) => string }) => {
  const selectedId = useEditor((s) => s.selectedId);
  const node = useEditor((s) => s.nodes.find((n) => n.id === s.selectedId));
  const issues = useEditor((s) => (s.selectedId ? s.issues[s.selectedId] : undefined));
  const result = useEditor((s) => (s.selectedId ? s.results[s.selectedId] : undefined));
  const readOnly = useEditor((s) => s.readOnly);
  const updateNode = useEditor((s) => s.updateNode);
  const deleteNode = useEditor((s) => s.deleteNode);
  if (!selectedId || !node)
    return (
      <EmptyState title="No node selected">
        {readOnly
          ? "Select a node to see its settings."
          : "Select a node to configure it, or add one from the palette."}
      </EmptyState>
    );
  const kind = node.data.kind;
  const ui = isNodeKind(kind) ? NODE_UI[kind] : null;
  const metrics = isNodeKind(kind)
    ? NODE_KIND_DEFS[kind].resultFields.map((f) => [f, result?.counters[f]] as const)
    : [];
  return (
    <section aria-label={`${labelOf(kind)} node settings`} className="space-y-4">
      <div>
        <p className="text-xs font-medium text-muted-foreground uppercase">{labelOf(kind)}</p>
        <p className="text-xs text-muted-foreground">{ui?.description}</p>
      </div>
      <Field label="Node name">
        {(p) => (
          <Input
            {...p}
            value={node.data.name}
            disabled={readOnly}
            maxLength={200}
            onChange={(e) => updateNode(node.id, { name: e.target.value })}
          />
        )}
      </Field>
      {!!issues?.length && (
        <ul aria-label="Problems of this node" className="space-y-1">
          {issues.map((m) => (
            <li
              key={m}
              className="rounded-md border border-red-200 bg-red-50 px-2.5 py-1.5 text-xs text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
            >
              {problemText(m)}
            </li>
          ))}
        </ul>
      )}
      {ui ? (
        <ui.ConfigForm key={node.id} nodeId={node.id} projectId={projectId} />
      ) : (
        <p className="text-sm text-muted-foreground">Unknown node type: it can only be deleted.</p>
      )}
      {metrics.length > 0 && (
        <details className="rounded-md border border-border px-3 py-2" open={!!result}>
          <summary className="cursor-pointer text-sm font-medium">Metrics</summary>
          {result ? (
            <dl aria-label="Node metrics" className="mt-2 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-xs">
              {metrics.map(([f, v]) => (
                <div key={f} className="contents">
                  <dt className="text-muted-foreground">{metricLabel(f)}</dt>
                  <dd className="text-right font-medium tabular-nums">
                    {v === null || v === undefined ? "—" : String(v)}
                  </dd>
                </div>
              ))}
              {result.lastRun && (
                <div className="contents">
                  <dt className="text-muted-foreground">Last run</dt>
                  <dd className="text-right">{new Date(result.lastRun).toLocaleString()}</dd>
                </div>
              )}
            </dl>
          ) : (
            <p className="mt-2 text-xs text-muted-foreground">No runs yet: deploy or run the flow to measure it.</p>
          )}
        </details>
      )}
      {!readOnly && (
        <Button variant="secondary" size="sm" onClick={() => deleteNode(node.id)}>
          Delete node
        </Button>
      )}
    </section>
  );
};
