"use client";

import { Spinner } from "@/components/ui/states";
import type { GraphIssue } from "@/server/flows/validate-graph";

/** Deploy preconditions: every problem the server's check found, each linked to its node. */
export const Checklist = ({
  result,
  pending,
  problemText,
  onPick,
}: {
  result: { ok: boolean; issues: GraphIssue[] } | null;
  pending: boolean;
  problemText: (message: string) => string;
  onPick: (nodeId: string) => void;
}) => {
  if (!result)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> {pending ? "Checking the flow…" : "Not checked yet"}
      </p>
    );
  return (
    <section aria-label="Deploy checklist" className="space-y-3">
      {result.ok ? (
        <p
          role="status"
          className="flex items-center gap-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
        >
          <span aria-hidden="true">✓</span> Ready to deploy
        </p>
      ) : (
        <p role="status" className="text-sm text-muted-foreground">
          {result.issues.length} problem{result.issues.length === 1 ? "" : "s"} to fix before deploying:
        </p>
      )}
      {!result.ok && (
        <ul aria-label="Problems" className="space-y-1.5">
          {result.issues.map((issue, i) => (
            <li key={`${issue.nodeId ?? ""}-${i}`}>
              {issue.nodeId ? (
                <button
                  type="button"
                  onClick={() => onPick(issue.nodeId!)}
                  className="flex w-full items-start gap-2 rounded-md border border-border px-2.5 py-1.5 text-left text-sm hover:border-primary hover:bg-muted"
                >
                  <span aria-hidden="true" className="mt-0.5 text-red-600 dark:text-red-400">
                    ✕
                  </span>
                  <span>{problemText(issue.message)}</span>
                </button>
              ) : (
                <p className="flex items-start gap-2 rounded-md border border-border px-2.5 py-1.5 text-sm">
                  <span aria-hidden="true" className="mt-0.5 text-red-600 dark:text-red-400">
                    ✕
                  </span>
                  <span>{problemText(issue.message)}</span>
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-muted-foreground">
        The same check runs on deploy: a response node reached from a dataset with completed files, valid settings,
        known prompts, no cycles.
      </p>
    </section>
  );
};
