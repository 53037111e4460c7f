"use client";

import type { ReactNode } from "react";
import { Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Loading } from "@/components/ui/states";
import type { Graph } from "@/server/flows/graph.schema";
import { Canvas } from "./canvas";
import type { EvaluationSelection } from "./evaluation/evaluation-panel";
import { RunComparison } from "./evaluation/run-comparison";
import { RunResults } from "./evaluation/run-results";
import { Palette } from "./palette";
import { RevisionDiff } from "./revision-diff";
import { EditorStoreContext, type EditorStore } from "./store";

type Revision = { id: string; number: number };

/** A revision opened read-only: a way back, a way to restore it, and how it differs from the draft. */
export const RevisionNotice = ({
  viewing,
  draft,
  revisionGraph,
  canRestore,
  restoring,
  onBack,
  onRestore,
}: {
  viewing: Revision;
  draft: EditorStore;
  revisionGraph: Graph | null;
  canRestore: boolean;
  restoring: boolean;
  onBack: () => void;
  onRestore: () => void;
}) => (
  <>
    <Notice className="flex flex-wrap items-center gap-2">
      <span className="flex-1">Viewing revision {viewing.number}, read-only. The draft is unchanged.</span>
      <Button size="sm" variant="secondary" onClick={onBack}>
        Back to the draft
      </Button>
      {canRestore && (
        <Button size="sm" variant="secondary" onClick={onRestore} disabled={restoring}>
          Restore into draft
        </Button>
      )}
    </Notice>
    {revisionGraph && (
      <RevisionDiff draft={draft.getState().graph()} revision={revisionGraph} number={viewing.number} />
    )}
  </>
);

/** Palette (for an editor of the draft), canvas and side panel, over the store shown (the draft or a revision). */
export const EditorWorkspace = ({
  store,
  withPalette,
  viewing,
  loadingRevision,
  panel,
}: {
  store: EditorStore;
  withPalette: boolean;
  viewing: Revision | null;
  loadingRevision: boolean;
  panel: ReactNode;
}) => (
  <EditorStoreContext.Provider value={store}>
    {/* A phone stacks the canvas over the panel; from 768 px they sit side by side at the window's height. */}
    <div
      className={`grid grid-cols-1 gap-3 md:h-[calc(100vh-15rem)] md:min-h-[560px] ${
        withPalette ? "md:grid-cols-[10.5rem_minmax(0,1fr)_23rem]" : "md:grid-cols-[minmax(0,1fr)_23rem]"
      }`}
    >
      {withPalette && (
        <Card className="overflow-hidden">
          <Palette />
        </Card>
      )}
      <Card className="h-[60vh] min-h-80 overflow-hidden md:h-auto md:min-h-0" label="Canvas">
        {viewing && loadingRevision ? (
          <Loading>Loading revision {viewing.number}…</Loading>
        ) : (
          <Canvas key={viewing?.id ?? "draft"} label={viewing ? `Revision ${viewing.number}` : "Flow canvas"} />
        )}
      </Card>
      <Card className="flex min-h-0 min-w-0 flex-col overflow-hidden" label="Flow panel">
        <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">{panel}</div>
      </Card>
    </div>
  </EditorStoreContext.Provider>
);

/** Evaluation results need the window's width: they open under the canvas. */
export const EvaluationResults = ({
  projectId,
  evaluation,
  onChange,
}: {
  projectId: string;
  evaluation: EvaluationSelection;
  onChange: (selection: EvaluationSelection) => void;
}) => (
  <>
    {evaluation.compare.length === 2 && (
      <RunComparison
        projectId={projectId}
        a={evaluation.compare[0]!}
        b={evaluation.compare[1]!}
        onClose={() => onChange({ ...evaluation, compare: [] })}
      />
    )}
    {evaluation.view && (
      <RunResults
        key={evaluation.view}
        projectId={projectId}
        runId={evaluation.view}
        onClose={() => onChange({ ...evaluation, view: null })}
      />
    )}
  </>
);
