"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState, Loading } from "@/components/ui/states";
import { count } from "@/components/lib/count";
import { useRefreshFlow } from "./use-deploy-actions";

/**
 * Every kept deploy: who, when, what for; view one read-only, copy it into the draft, or roll traffic back to it at
 * once (a built revision that is not serving).
 */
export const RevisionsPanel = ({
  projectId,
  name,
  viewing,
  canRestore,
  restoring,
  onView,
  onRestore,
}: {
  projectId: string;
  name: string;
  viewing: string | null;
  canRestore: boolean;
  restoring: boolean;
  onView: (revision: { id: string; number: number }) => void;
  onRestore: (revision: { id: string; number: number }) => void;
}) => {
  const trpc = useTRPC();
  const revisions = useQuery(trpc.dashboard.flows.revisions.queryOptions({ projectId, name }));
  const refresh = useRefreshFlow(projectId, name);
  const rollback = useMutation(trpc.dashboard.flowFiles.rollback.mutationOptions({ onSuccess: refresh }));
  if (revisions.isPending) return <Loading>Loading revisions…</Loading>;
  if (revisions.isError) return <ErrorAlert>{revisions.error.message}</ErrorAlert>;
  if (!revisions.data.length)
    return <EmptyState title="No deploys yet">Each deploy keeps a read-only revision of the flow here.</EmptyState>;
  return (
    <div className="space-y-2">
      {rollback.isError && <ErrorAlert>{rollback.error.message}</ErrorAlert>}
      {rollback.isSuccess && (
        <p role="status" className="text-sm text-muted-foreground">
          Revision {rollback.data.number} serves the flow again.
        </p>
      )}
      <ol aria-label="Revisions" className="space-y-2">
        {revisions.data.map((r) => (
          <li
            key={r.id}
            aria-label={`Revision ${r.number}`}
            className={`rounded-md border px-3 py-2 text-sm ${viewing === r.id ? "border-primary" : "border-border"}`}
          >
            <div className="flex items-center gap-2">
              <span className="font-semibold">Revision {r.number}</span>
              {r.serving ? (
                <Badge tone="success">Serving</Badge>
              ) : r.status === "failed" ? (
                <Badge tone="danger">Failed</Badge>
              ) : r.status === "building" ? (
                <Badge tone="info">Deploying</Badge>
              ) : null}
            </div>
            <p className="mt-0.5 text-xs text-muted-foreground">
              {r.deployedBy ?? "unknown"} · {new Date(r.createdAt).toLocaleString()} · {count(r.nodes, "node")}
            </p>
            {r.description && <p className="mt-1 text-xs">{r.description}</p>}
            {r.error && <p className="mt-1 text-xs text-destructive">{r.error}</p>}
            <div className="mt-2 flex gap-2">
              <Button size="sm" variant="secondary" onClick={() => onView(r)} disabled={viewing === r.id}>
                {viewing === r.id ? "Viewing" : "View"}
              </Button>
              {canRestore && (
                <Button size="sm" variant="secondary" onClick={() => onRestore(r)} disabled={restoring}>
                  Restore into draft
                </Button>
              )}
              {canRestore && r.status === "ready" && !r.serving && (
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Roll back to revision ${r.number}`}
                  onClick={() => rollback.mutate({ projectId, name, revisionId: r.id })}
                  disabled={rollback.isPending}
                >
                  Roll back to this
                </Button>
              )}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
};
