"use client";

import { useReactFlow } from "@xyflow/react";
import Link from "next/link";
import { useStore } from "zustand";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/states";
import { BuildBudget } from "./build-budget";
import { FlowStatusBadge } from "./flow-status";
import { LEGIBLE_FIT, type FlowDirection } from "./placement";
import type { EditorStore } from "./store";
import type { SaveState } from "./use-autosave";
import type { FlowView } from "./flow-view";

const SAVE_TEXT: Record<SaveState, string> = {
  saved: "Saved",
  saving: "Saving…",
  unsaved: "Unsaved changes",
  error: "Not saved",
  conflict: "Not saved: changed elsewhere",
};

const SaveIndicator = ({ state, readOnly }: { state: SaveState; readOnly: boolean }) => (
  <span
    role="status"
    aria-label="Draft state"
    className={`inline-flex items-center gap-1.5 text-xs font-medium ${
      readOnly
        ? "text-muted-foreground"
        : state === "saved"
          ? "text-emerald-700 dark:text-emerald-300"
          : state === "error" || state === "conflict"
            ? "text-destructive"
            : "text-amber-700 dark:text-amber-300"
    }`}
  >
    {state === "saving" && <Spinner className="size-3" />}
    {readOnly ? "Read-only" : SAVE_TEXT[state]}
  </span>
);

const FIT = { ...LEGIBLE_FIT, duration: 300 } as const;

/**
 * Undo, redo, layout, the build budget and Deploy: what an editor of the draft can do. On a phone the canvas is
 * read-only, so the tools that change the graph are left out; fitting the view and deploying stay.
 */
const DraftTools = ({
  draft,
  projectId,
  name,
  canDeploy,
  deploying,
  checklistOk,
  onDeploy,
  canvasReadOnly,
}: {
  draft: EditorStore;
  projectId: string;
  name: string;
  canDeploy: boolean;
  deploying: boolean;
  checklistOk: boolean;
  onDeploy: () => void;
  canvasReadOnly: boolean;
}) => {
  const { fitView } = useReactFlow();
  const layOut = (direction: FlowDirection) => {
    draft.getState().autoLayout(direction);
    requestAnimationFrame(() => void fitView(FIT));
  };
  return (
    <div className="ml-auto flex flex-wrap items-center gap-1.5">
      {!canvasReadOnly && <GraphTools draft={draft} layOut={layOut} />}
      <Button variant="secondary" size="sm" onClick={() => void fitView(FIT)}>
        Fit view
      </Button>
      <BuildBudget projectId={projectId} name={name} canEdit />
      <Button
        size="sm"
        onClick={onDeploy}
        disabled={!canDeploy}
        title={checklistOk ? "Deploy the draft as a new revision" : "Fix the checklist first"}
      >
        {deploying && <Spinner className="size-3" />} {deploying ? "Deploying…" : "Deploy"}
      </Button>
    </div>
  );
};

/** Undo, redo and the two auto-layouts: the header's tools that change the graph. */
const GraphTools = ({ draft, layOut }: { draft: EditorStore; layOut: (direction: FlowDirection) => void }) => {
  const history = useStore(draft, (s) => s.history);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => draft.getState().undo()}
        disabled={!history.past.length}
        title="Undo (Ctrl+Z)"
      >
        Undo
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => draft.getState().redo()}
        disabled={!history.future.length}
        title="Redo (Ctrl+Shift+Z)"
      >
        Redo
      </Button>
      <Button variant="secondary" size="sm" onClick={() => layOut("horizontal")} title="Lay out left to right">
        Auto-layout
      </Button>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => layOut("vertical")}
        title="Lay out top to bottom"
        aria-label="Lay out top to bottom"
      >
        ↓
      </Button>
    </>
  );
};

/** The editor's title line: where the flow is, its state, the draft's save state and the tools. */
export const EditorHeader = ({
  projectId,
  name,
  view,
  draft,
  saveState,
  canEdit,
  viewingRevision,
  canvasReadOnly,
  ...tools
}: {
  projectId: string;
  name: string;
  view: FlowView;
  draft: EditorStore;
  saveState: SaveState;
  canEdit: boolean;
  viewingRevision: boolean;
  /** The phone's read-only canvas of someone who may edit elsewhere. */
  canvasReadOnly: boolean;
  canDeploy: boolean;
  deploying: boolean;
  checklistOk: boolean;
  onDeploy: () => void;
}) => {
  const { fitView } = useReactFlow();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <Link href={`/${projectId}/flows`} className="text-sm text-link hover:underline">
        Flows
      </Link>
      <span aria-hidden="true" className="text-muted-foreground">
        /
      </span>
      <h1 className="text-xl font-semibold tracking-tight">{name}</h1>
      <FlowStatusBadge status={view.status} />
      {view.activeRevision && (
        <span className="text-xs text-muted-foreground">revision {view.activeRevision.number} serving</span>
      )}
      <SaveIndicator state={saveState} readOnly={!canEdit} />
      {canEdit && !viewingRevision && (
        <DraftTools draft={draft} projectId={projectId} name={name} canvasReadOnly={canvasReadOnly} {...tools} />
      )}
      {(!canEdit || viewingRevision) && (
        <div className="ml-auto">
          <Button variant="secondary" size="sm" onClick={() => void fitView(FIT)}>
            Fit view
          </Button>
        </div>
      )}
    </div>
  );
};
