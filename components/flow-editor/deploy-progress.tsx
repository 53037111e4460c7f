"use client";

import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { FlowView } from "./flow-view";

/** The running deploy's step and progress, with a way to stop it. */
export const DeployProgress = ({
  view,
  canCancel,
  cancelling,
  cancelDisabled,
  onCancel,
}: {
  view: FlowView;
  canCancel: boolean;
  cancelling: boolean;
  cancelDisabled: boolean;
  onCancel: () => void;
}) => (
  <div
    role="status"
    aria-label="Deploy progress"
    className="space-y-1 rounded-md border border-border bg-card px-3 py-2"
  >
    <div className="flex items-center gap-3">
      <p className="flex-1 text-sm">
        Deploying{view.latestDeploy?.status === "building" ? ` revision ${view.latestDeploy.number}` : ""}:{" "}
        <span className="text-muted-foreground">{view.latestDeploy?.step ?? "queued"}</span>
      </p>
      {canCancel && (
        <Button
          size="sm"
          variant="secondary"
          disabled={cancelDisabled}
          title="Stop at the next step; the serving revision stays as it is"
          onClick={onCancel}
        >
          {cancelling ? "Cancelling…" : "Cancel deploy"}
        </Button>
      )}
    </div>
    <ProgressBar label="Deploy" value={view.latestDeploy?.status === "building" ? view.latestDeploy.progress : 2} />
  </div>
);
