"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { EmptyState, Loading } from "@/components/ui/states";
import { CreateFlow } from "./create-flow";
import { FlowTemplates } from "./flow-templates";
import { FlowsTable } from "./flows-table";
import { useFlowFiles } from "./use-flow-files";
import { useDeleteFlow } from "./use-flows-list";

/**
 * The project's flows: create one (empty, from a template or from a file; then edit it on the canvas), open, export,
 * duplicate, delete; status and serving revision.
 */
export const FlowsList = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const project = useProject(projectId);
  const canEdit = project.can("member");
  const flows = useQuery(trpc.dashboard.flows.list.queryOptions({ projectId }));
  const { deleting, setDeleting, remove } = useDeleteFlow(projectId);
  const files = useFlowFiles(projectId);

  if (project.isPending) return <Loading>Loading the project…</Loading>;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Flows</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Retrieval pipelines drawn as graphs: edit a draft, check it, deploy it to its own endpoint.
        </p>
      </div>
      {canEdit && <CreateFlow projectId={projectId} />}
      {canEdit && <FlowTemplates projectId={projectId} files={files} />}
      <Card label="All flows">
        {flows.isPending ? (
          <Loading>Loading flows…</Loading>
        ) : flows.isError ? (
          <div className="p-5">
            <ErrorAlert>{flows.error.message}</ErrorAlert>
          </div>
        ) : flows.data.length === 0 ? (
          <EmptyState title="No flows yet">
            {canEdit ? "Create one above, then build it on the canvas." : "Members of the team create flows."}
          </EmptyState>
        ) : (
          <FlowsTable
            projectId={projectId}
            flows={flows.data}
            canEdit={canEdit}
            onExport={(name) => void files.download(name)}
            onDuplicate={(name) => files.duplicate.mutate({ projectId, name })}
            onDelete={setDeleting}
          />
        )}
        {files.duplicate.isError && <ErrorAlert className="m-5">{files.duplicate.error.message}</ErrorAlert>}
      </Card>
      <ConfirmDialog
        open={!!deleting}
        title={`Delete ${deleting ?? ""}?`}
        confirmLabel="Delete flow"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ projectId, name: deleting })}
        onClose={() => setDeleting(null)}
      >
        The draft, every revision and the flow&apos;s endpoint go away. Sources are not touched.
        {remove.isError && <ErrorAlert className="mt-3">{remove.error.message}</ErrorAlert>}
      </ConfirmDialog>
    </div>
  );
};
