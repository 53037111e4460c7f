"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { ProgressBar } from "@/components/ui/progress-bar";
import { EmptyState, Loading, Spinner } from "@/components/ui/states";
import { fmt, runLabel, STATUS_TONE, type EvaluationRun } from "./metric-format";
import { TestSetImport } from "./test-set-import";

export type EvaluationSelection = { view: string | null; compare: string[] };

const active = (run: EvaluationRun) => run.status === "queued" || run.status === "running";

/** The figures of the node that stands for the run (its response node, the flow's answer). */
const headline = (run: EvaluationRun) => (run.mainNodeId ? run.aggregates[run.mainNodeId]?.metrics : null);

/**
 * The Evaluation tab: the project's test sets (import, delete), a run of one against the draft or the deployed
 * revision with its progress, and the runs of this flow (or of every flow) to open or to compare two of.
 */
export const EvaluationPanel = ({
  projectId,
  name,
  canEdit,
  deployedRevision,
  selection,
  onSelect,
}: {
  projectId: string;
  name: string;
  canEdit: boolean;
  deployedRevision: number | null;
  selection: EvaluationSelection;
  onSelect: (next: EvaluationSelection) => void;
}) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [allFlows, setAllFlows] = useState(false);
  const [testSet, setTestSet] = useState("");
  const [target, setTarget] = useState<"draft" | "deployed">("draft");
  const testSets = useQuery(trpc.dashboard.evaluation.testSets.queryOptions({ projectId }));
  const runsInput = { projectId, ...(allFlows ? {} : { flowName: name }) };
  const runs = useQuery({
    ...trpc.dashboard.evaluation.runs.queryOptions(runsInput),
    refetchInterval: (q) => (q.state.data?.some(active) ? 1000 : false),
  });
  // A run that finishes changes the metrics on the flow's llm/response nodes: the draft's results are read again.
  const finished = runs.data?.filter((r) => !active(r)).length ?? 0;
  useEffect(() => {
    if (finished)
      void queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.get.queryKey({ projectId, name }) });
  }, [finished, queryClient, trpc, projectId, name]);
  const start = useMutation(trpc.dashboard.evaluation.start.mutationOptions());
  const cancel = useMutation(trpc.dashboard.evaluation.cancel.mutationOptions());
  const remove = useMutation(trpc.dashboard.evaluation.deleteTestSet.mutationOptions());
  const refreshRuns = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.evaluation.runs.queryKey() });
  const chosenSet = testSet || testSets.data?.[0]?.id || "";

  const onStart = async () => {
    try {
      const run = await start.mutateAsync({ projectId, flowName: name, testSet: chosenSet, target });
      onSelect({ ...selection, view: run.id });
      await refreshRuns();
    } catch {
      // Shown from the mutation's state.
    }
  };
  const toggleCompare = (id: string) => {
    const picked = selection.compare.includes(id)
      ? selection.compare.filter((x) => x !== id)
      : [...selection.compare, id].slice(-2);
    onSelect({ ...selection, compare: picked });
  };

  return (
    <div className="space-y-5">
      <section aria-label="Test sets" className="space-y-3">
        <h3 className="text-sm font-semibold">Test sets</h3>
        {testSets.isPending ? (
          <Loading>Loading test sets…</Loading>
        ) : testSets.isError ? (
          <ErrorAlert>{testSets.error.message}</ErrorAlert>
        ) : testSets.data.length === 0 ? (
          <p className="text-xs text-muted-foreground">No test sets yet: import one below.</p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border text-sm">
            {testSets.data.map((t) => (
              <li key={t.id} aria-label={`Test set ${t.name}`} className="flex items-center gap-2 px-3 py-1.5">
                <span className="min-w-0 flex-1 truncate font-medium">{t.name}</span>
                <span className="text-xs text-muted-foreground">{t.caseCount} cases</span>
                {canEdit && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete test set ${t.name}`}
                    disabled={remove.isPending}
                    onClick={async () => {
                      if (!window.confirm(`Delete the test set ${t.name} and its runs?`)) return;
                      await remove.mutateAsync({ projectId, testSet: t.id }).catch(() => undefined);
                      await queryClient.invalidateQueries({
                        queryKey: trpc.dashboard.evaluation.testSets.queryKey({ projectId }),
                      });
                      await refreshRuns();
                    }}
                  >
                    ✕
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {remove.isError && <ErrorAlert>{remove.error.message}</ErrorAlert>}
        {canEdit && <TestSetImport projectId={projectId} />}
      </section>

      {canEdit && (
        <form
          aria-label="Run an evaluation"
          className="space-y-2 border-t border-border pt-4"
          onSubmit={(e) => {
            e.preventDefault();
            void onStart();
          }}
        >
          <h3 className="text-sm font-semibold">Run</h3>
          <Field label="Test set">
            {(p) => (
              <Select {...p} value={chosenSet} onChange={(e) => setTestSet(e.target.value)}>
                {!testSets.data?.length && <option value="">No test sets</option>}
                {testSets.data?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} ({t.caseCount})
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Against">
            {(p) => (
              <Select {...p} value={target} onChange={(e) => setTarget(e.target.value as "draft" | "deployed")}>
                <option value="draft">The draft</option>
                <option value="deployed" disabled={deployedRevision === null}>
                  {deployedRevision === null ? "Deployed revision (none yet)" : `Deployed revision ${deployedRevision}`}
                </option>
              </Select>
            )}
          </Field>
          <Button type="submit" size="sm" disabled={!chosenSet || start.isPending}>
            {start.isPending && <Spinner className="size-3" />} Evaluate
          </Button>
          {start.isError && <ErrorAlert>{start.error.message}</ErrorAlert>}
        </form>
      )}

      <section aria-label="Evaluation runs" className="space-y-2 border-t border-border pt-4">
        <div className="flex items-center gap-2">
          <h3 className="flex-1 text-sm font-semibold">Runs</h3>
          <label className="flex items-center gap-1.5 text-xs text-muted-foreground">
            <input type="checkbox" checked={allFlows} onChange={(e) => setAllFlows(e.target.checked)} />
            every flow
          </label>
        </div>
        <p className="text-xs text-muted-foreground">Tick two runs to compare them side by side.</p>
        {runs.isPending ? (
          <Loading>Loading runs…</Loading>
        ) : runs.isError ? (
          <ErrorAlert>{runs.error.message}</ErrorAlert>
        ) : runs.data.length === 0 ? (
          <EmptyState title="No evaluations yet">Run a test set to see each case with its metrics.</EmptyState>
        ) : (
          <ol className="space-y-2">
            {runs.data.map((run) => {
              const m = headline(run);
              const label = runLabel(run, allFlows || run.flowName !== name);
              return (
                <li
                  key={run.id}
                  aria-label={`Run ${label}`}
                  className={`rounded-md border px-3 py-2 text-sm ${
                    selection.view === run.id ? "border-primary" : "border-border"
                  }`}
                >
                  <div className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      aria-label={`Compare ${label}`}
                      checked={selection.compare.includes(run.id)}
                      onChange={() => toggleCompare(run.id)}
                    />
                    <span className="min-w-0 flex-1 truncate font-medium">{label}</span>
                    <Badge tone={STATUS_TONE[run.status] ?? "neutral"}>{run.status}</Badge>
                  </div>
                  <p className="mt-0.5 text-xs text-muted-foreground">
                    {run.testSetName} · {new Date(run.createdAt).toLocaleString()} ·{" "}
                    {run.judgeModel ? `judge ${run.judgeModel}` : "no judge"}
                  </p>
                  {active(run) && (
                    <div className="mt-1.5 space-y-1">
                      <ProgressBar label={`Run ${label}`} value={(100 * run.doneCases) / Math.max(1, run.totalCases)} />
                      <p className="text-xs text-muted-foreground">
                        {run.doneCases} of {run.totalCases} cases
                        {run.cancelRequested ? " · stopping…" : ""}
                      </p>
                    </div>
                  )}
                  {m && !active(run) && (
                    <p className="mt-1 font-mono text-[11px] text-muted-foreground">
                      P {fmt(m.contextual_precision?.mean)} · R {fmt(m.contextual_recall?.mean)} · AR{" "}
                      {fmt(m.answer_relevancy?.mean)} · F {fmt(m.faithfulness?.mean)}
                    </p>
                  )}
                  {run.error && <p className="mt-1 text-xs text-destructive">{run.error}</p>}
                  <div className="mt-2 flex gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => onSelect({ ...selection, view: run.id })}
                      disabled={selection.view === run.id}
                    >
                      {selection.view === run.id ? "Showing" : "Open"}
                    </Button>
                    {canEdit && active(run) && !run.cancelRequested && (
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={async () => {
                          await cancel.mutateAsync({ projectId, runId: run.id }).catch(() => undefined);
                          await refreshRuns();
                        }}
                      >
                        Cancel
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </section>
    </div>
  );
};
