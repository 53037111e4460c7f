"use client";

import { count } from "@/components/lib/count";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { EmptyState, Loading } from "@/components/ui/states";
import { fmt, runLabel, STATUS_TONE, type EvaluationRun } from "./metric-format";
import type { EvaluationSelection } from "./selection";
import { active, type EvaluationState } from "./use-evaluation";

/** The figures of the node that stands for the run (its response node, the flow's answer). */
const headline = (run: EvaluationRun) => (run.mainNodeId ? run.aggregates[run.mainNodeId]?.metrics : null);

/** A run's progress while it is under way. */
const RunProgress = ({ run, label }: { run: EvaluationRun; label: string }) => (
  <div className="mt-1.5 space-y-1">
    <ProgressBar label={`Run ${label}`} value={(100 * run.doneCases) / Math.max(1, run.totalCases)} />
    <p className="text-xs text-muted-foreground">
      {run.doneCases} of {count(run.totalCases, "case")}
      {run.cancelRequested ? " · stopping…" : ""}
    </p>
  </div>
);

/** One run: tick to compare, its status and headline figures, open or cancel it. */
const RunItem = ({
  run,
  label,
  canEdit,
  selection,
  onSelect,
  state,
}: {
  run: EvaluationRun;
  label: string;
  canEdit: boolean;
  selection: EvaluationSelection;
  onSelect: (next: EvaluationSelection) => void;
  state: EvaluationState;
}) => {
  const m = headline(run);
  return (
    <li
      aria-label={`Run ${label}`}
      className={`rounded-md border px-3 py-2 text-sm ${selection.view === run.id ? "border-primary" : "border-border"}`}
    >
      <div className="flex items-center gap-2">
        <input
          type="checkbox"
          aria-label={`Compare ${label}`}
          checked={selection.compare.includes(run.id)}
          onChange={() => state.toggleCompare(run.id)}
        />
        <span className="min-w-0 flex-1 truncate font-medium">{label}</span>
        <Badge tone={STATUS_TONE[run.status] ?? "neutral"}>{run.status}</Badge>
      </div>
      <p className="mt-0.5 text-xs text-muted-foreground">
        {run.testSetName} · {new Date(run.createdAt).toLocaleString()} ·{" "}
        {run.judgeModel ? `judge ${run.judgeModel}` : "no judge"}
      </p>
      {active(run) && <RunProgress run={run} label={label} />}
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
          <Button size="sm" variant="secondary" onClick={() => state.onCancel(run.id)}>
            Cancel
          </Button>
        )}
      </div>
    </li>
  );
};

/** The runs of this flow (or of every flow), newest first. */
export const EvaluationRuns = ({
  name,
  canEdit,
  selection,
  onSelect,
  state,
}: {
  name: string;
  canEdit: boolean;
  selection: EvaluationSelection;
  onSelect: (next: EvaluationSelection) => void;
  state: EvaluationState;
}) => {
  const { runs, allFlows, setAllFlows } = state;
  return (
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
          {runs.data.map((run) => (
            <RunItem
              key={run.id}
              run={run}
              label={runLabel(run, allFlows || run.flowName !== name)}
              canEdit={canEdit}
              selection={selection}
              onSelect={onSelect}
              state={state}
            />
          ))}
        </ol>
      )}
    </section>
  );
};
