"use client";

import { useState } from "react";
import { PublicEndpoint } from "./public-endpoint";
import { RunForm } from "./run-form";
import { RunResult } from "./run-result";
import type { RunState } from "./use-flow-run";

/** Ask the draft (a simulation) or the deployed revision; the answer streams in, the passages follow. */
export const RunPanel = ({
  run,
  onRun,
  canRun,
  deployedRevision,
  url,
  nameOf,
}: {
  run: RunState;
  onRun: (query: string, target: "draft" | "deployed") => void;
  canRun: boolean;
  deployedRevision: number | null;
  url: string;
  nameOf: (nodeId: string) => string;
}) => {
  // The question is shared: the form edits it and the example request shows it.
  const [query, setQuery] = useState("");
  const [target, setTarget] = useState<"draft" | "deployed">("draft");
  return (
    <div className="space-y-4">
      {canRun ? (
        <RunForm
          query={query}
          setQuery={setQuery}
          target={target}
          setTarget={setTarget}
          running={run.status === "running"}
          deployedRevision={deployedRevision}
          onRun={onRun}
        />
      ) : (
        <p className="text-sm text-muted-foreground">Runs need the member role; viewers read the flow.</p>
      )}

      {run.status !== "idle" && <RunResult run={run} nameOf={nameOf} />}

      <PublicEndpoint url={url} query={query} deployedRevision={deployedRevision} />
    </div>
  );
};
