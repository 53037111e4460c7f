"use client";

import { count } from "@/components/lib/count";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { Loading, Spinner } from "@/components/ui/states";
import { useState } from "react";
import { NewTestSet, TestCases } from "./test-cases";
import { TestSetImport } from "./test-set-import";
import type { EvaluationState } from "./use-evaluation";

/** The project's test sets, each with its cases to read and (editors) edit or delete; a new set, or an import. */
export const TestSets = ({
  projectId,
  canEdit,
  state,
}: {
  projectId: string;
  canEdit: boolean;
  state: EvaluationState;
}) => {
  const { testSets, remove, onDelete } = state;
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section aria-label="Test sets" className="space-y-3">
      <h3 className="text-sm font-semibold">Test sets</h3>
      {testSets.isPending ? (
        <Loading>Loading test sets…</Loading>
      ) : testSets.isError ? (
        <ErrorAlert>{testSets.error.message}</ErrorAlert>
      ) : testSets.data.length === 0 ? (
        <p className="text-xs text-muted-foreground">No test sets yet: create or import one below.</p>
      ) : (
        <ul className="divide-y divide-border rounded-md border border-border text-sm">
          {testSets.data.map((t) => (
            <li key={t.id} aria-label={`Test set ${t.name}`}>
              <div className="flex items-center gap-2 px-3 py-1.5">
                <span className="min-w-0 flex-1 truncate font-medium">{t.name}</span>
                <span className="text-xs text-muted-foreground">{count(t.caseCount, "case")}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-expanded={open === t.id}
                  aria-label={`Cases of test set ${t.name}`}
                  onClick={() => setOpen(open === t.id ? null : t.id)}
                >
                  Cases
                </Button>
                {canEdit && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete test set ${t.name}`}
                    disabled={remove.isPending}
                    onClick={() => onDelete(t)}
                  >
                    ✕
                  </Button>
                )}
              </div>
              {open === t.id && <TestCases projectId={projectId} testSet={t.id} canEdit={canEdit} />}
            </li>
          ))}
        </ul>
      )}
      {remove.isError && <ErrorAlert>{remove.error.message}</ErrorAlert>}
      {canEdit && <NewTestSet projectId={projectId} onCreated={setOpen} />}
      {canEdit && <TestSetImport projectId={projectId} />}
    </section>
  );
};

/** Starts a run of a test set against the draft or the deployed revision. */
export const RunForm = ({ deployedRevision, state }: { deployedRevision: number | null; state: EvaluationState }) => {
  const { testSets, chosenSet, setTestSet, target, setTarget, start, onStart } = state;
  return (
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
  );
};
