"use client";

import { EvaluationRuns } from "./evaluation-runs";
import { RunForm, TestSets } from "./test-sets";
import type { EvaluationSelection } from "./selection";
import { useEvaluation } from "./use-evaluation";

export type { EvaluationSelection } from "./selection";

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
  const state = useEvaluation({ projectId, name, selection, onSelect });
  return (
    <div className="space-y-5">
      <TestSets projectId={projectId} canEdit={canEdit} state={state} />
      {canEdit && <RunForm deployedRevision={deployedRevision} state={state} />}
      <EvaluationRuns name={name} canEdit={canEdit} selection={selection} onSelect={onSelect} state={state} />
    </div>
  );
};
