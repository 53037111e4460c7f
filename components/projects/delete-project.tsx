"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ProgressBar } from "@/components/ui/progress-bar";

const STEP_LABELS: Record<string, string> = {
  webhooks: "webhooks",
  conversations: "conversations",
  evaluations: "evaluations",
  flows: "flows and their deployments",
  chunks: "chunks",
  elements: "elements",
  sources: "sources and builds",
  files: "stored files",
  tokens: "API tokens",
  project: "the project",
};

/** A deletion whose job failed for good: why, and a button that starts it again where it stopped. */
const DeletionFailed = ({
  projectId,
  error,
  onRetried,
}: {
  projectId: string;
  error: string;
  onRetried: () => void;
}) => {
  const trpc = useTRPC();
  const retry = useMutation(trpc.dashboard.projects.retryDeletion.mutationOptions({ onSuccess: onRetried }));
  return (
    <div className="space-y-3">
      <ErrorAlert>The deletion stopped. {error}</ErrorAlert>
      <Button variant="danger" onClick={() => retry.mutate({ projectId })} disabled={retry.isPending}>
        Retry deletion
      </Button>
      {retry.isError && <ErrorAlert>{retry.error.message}</ErrorAlert>}
    </div>
  );
};

/** The deletion's progress, polled until the project is gone (the status query then answers not found). */
const DeletionProgress = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery({
    ...trpc.dashboard.projects.deletion.queryOptions({ projectId }),
    refetchInterval: (query) => (query.state.error ? false : 1000),
    retry: false,
  });
  const gone = status.error?.data?.code === "NOT_FOUND";
  if (gone) void queryClient.invalidateQueries({ queryKey: trpc.dashboard.account.me.queryKey() });
  if (status.error && !gone) return <ErrorAlert className="mx-5 my-4">{status.error.message}</ErrorAlert>;
  const progress = status.data;
  return (
    <div className="space-y-3 px-5 py-4" aria-live="polite">
      <ProgressBar
        label="Deletion progress"
        value={gone ? 100 : progress ? (progress.done / progress.total) * 100 : 0}
      />
      {gone ? (
        <Notice>
          <p role="status">The project was deleted.</p>
          <Link href="/" className="mt-2 inline-block text-sm text-link underline">
            Back to your projects
          </Link>
        </Notice>
      ) : progress?.error ? (
        <DeletionFailed projectId={projectId} error={progress.error} onRetried={() => void status.refetch()} />
      ) : (
        <p role="status" className="text-sm text-muted-foreground">
          {progress
            ? `Removing ${STEP_LABELS[progress.step] ?? progress.step} (step ${progress.done + 1} of ${progress.total}); ${progress.removed} records removed so far.`
            : "Starting…"}
        </p>
      )}
    </div>
  );
};

/**
 * The danger zone: an admin types the project's name to delete it. A job removes everything; the progress shows
 * here (also after a reload, while the project is flagged), and its API tokens are refused from the first moment.
 */
export const DeleteProject = ({
  projectId,
  name,
  deleting,
}: {
  projectId: string;
  name: string;
  deleting: boolean;
}) => {
  const trpc = useTRPC();
  const [typed, setTyped] = useState("");
  const remove = useMutation(trpc.dashboard.projects.delete.mutationOptions());
  const started = deleting || remove.isSuccess;
  return (
    <Card label="Danger zone" className="border-destructive/40">
      <CardHeader
        title="Delete project"
        description="Removes every source, flow, API token, webhook, conversation, evaluation and stored file of this project. This cannot be undone."
      />
      {started ? (
        <DeletionProgress projectId={projectId} />
      ) : (
        <form
          aria-label="Delete project"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            remove.mutate({ projectId, confirmName: typed });
          }}
          className="flex flex-wrap items-start gap-3 px-5 py-4"
        >
          <div className="w-72 max-w-full">
            <Field label={`Type ${name} to confirm`}>
              {(p) => <Input {...p} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />}
            </Field>
          </div>
          <Button type="submit" variant="danger" className="mt-6" disabled={typed !== name || remove.isPending}>
            Delete project
          </Button>
          {remove.isError && <ErrorAlert className="w-full">{remove.error.message}</ErrorAlert>}
        </form>
      )}
    </Card>
  );
};
