"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { BuildOptionsFields, DEFAULT_BUILD_OPTIONS, type BuildOptions } from "./build-options-fields";

type Source = { id: string; fileName: string; method: string | null };

/** Reprocess (with new options) and delete, each behind a confirmation. Shown to members and above. */
export const SourceActions = ({
  projectId,
  source,
  indexingOptions,
  onDeleted,
}: {
  projectId: string;
  source: Source;
  indexingOptions: readonly string[];
  onDeleted?: () => void;
}) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<"reprocess" | "delete" | null>(null);
  const [options, setOptions] = useState<BuildOptions>({ ...DEFAULT_BUILD_OPTIONS, method: source.method ?? "fast" });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.dashboard.sources.list.queryKey({ projectId }) }),
      queryClient.invalidateQueries({
        queryKey: trpc.dashboard.sources.builds.queryKey({ projectId, sourceId: source.id }),
      }),
    ]);
  const reprocess = useMutation(
    trpc.dashboard.sources.reprocess.mutationOptions({ onSuccess: () => (setDialog(null), refresh()) }),
  );
  const remove = useMutation(
    trpc.dashboard.sources.delete.mutationOptions({
      onSuccess: async () => {
        setDialog(null);
        await refresh();
        onDeleted?.();
      },
    }),
  );
  const error = reprocess.error ?? remove.error;

  return (
    <div className="flex items-center justify-end gap-2">
      <Button
        variant="secondary"
        size="sm"
        onClick={() => setDialog("reprocess")}
        aria-label={`Reprocess ${source.fileName}`}
      >
        Reprocess
      </Button>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => setDialog("delete")}
        aria-label={`Delete ${source.fileName}`}
      >
        Delete
      </Button>
      <ConfirmDialog
        open={dialog === "reprocess"}
        title={`Reprocess ${source.fileName}?`}
        confirmLabel="Reprocess"
        variant="primary"
        pending={reprocess.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() =>
          reprocess.mutate({
            projectId,
            sourceId: source.id,
            ...(options as { method: "fast"; enrichment: "full"; indexing: "full" }),
          })
        }
      >
        <p className="mb-3">A new build reads the file again; the current elements stay until it succeeds.</p>
        <BuildOptionsFields value={options} onChange={setOptions} indexingOptions={indexingOptions} />
        {error && <ErrorAlert className="mt-3">{error.message}</ErrorAlert>}
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === "delete"}
        title={`Delete ${source.fileName}?`}
        confirmLabel="Delete source"
        pending={remove.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => remove.mutate({ projectId, sourceId: source.id })}
      >
        <p>The file, its builds, elements and search index are removed for good.</p>
        {error && <ErrorAlert className="mt-3">{error.message}</ErrorAlert>}
      </ConfirmDialog>
    </div>
  );
};
