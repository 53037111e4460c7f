"use client";

import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { useStore } from "zustand";
import type { FlowView } from "./flow-view";
import { stepWithNames } from "./placement";
import type { EditorStore } from "./store";

/** The running deploy's step and progress, with a way to stop it. Steps name nodes as the draft does, not by id. */
export const DeployProgress = ({
  view,
  draft,
  canCancel,
  cancel,
  onCancel,
}: {
  view: FlowView;
  draft: EditorStore;
  canCancel: boolean;
  /** The cancel request's state: asked (success) means the deploy stops at its next step. */
  cancel: { isPending: boolean; isSuccess: boolean };
  onCancel: () => void;
}) => {
  const nodes = useStore(draft, (s) => s.nodes);
  const step = view.latestDeploy?.step;
  return (
    <div
      role="status"
      aria-label="Deploy progress"
      className="space-y-1 rounded-md border border-border bg-card px-3 py-2"
    >
      <div className="flex items-center gap-3">
        <p className="flex-1 text-sm">
          Deploying{view.latestDeploy?.status === "building" ? ` revision ${view.latestDeploy.number}` : ""}:{" "}
          <span className="text-muted-foreground">
            {step
              ? stepWithNames(
                  step,
                  nodes.map((n) => ({ id: n.id, name: n.data.name })),
                )
              : "queued"}
          </span>
        </p>
        {canCancel && (
          <Button
            size="sm"
            variant="secondary"
            disabled={cancel.isPending || cancel.isSuccess}
            title="Stop at the next step; the serving revision stays as it is"
            onClick={onCancel}
          >
            {cancel.isSuccess ? "Cancelling…" : "Cancel deploy"}
          </Button>
        )}
      </div>
      <ProgressBar label="Deploy" value={view.latestDeploy?.status === "building" ? view.latestDeploy.progress : 2} />
    </div>
  );
};
