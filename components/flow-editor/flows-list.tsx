"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { useZodForm } from "@/components/ui/use-zod-form";
import { CreateFlowInput } from "@/server/flows/editor.schema";
import { FlowStatusBadge } from "./flow-status";

/** The project's flows: create one (then edit it on the canvas), open, delete; status and serving revision. */
export const FlowsList = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const project = useProject(projectId);
  const canEdit = project.can("member");
  const listKey = trpc.dashboard.flows.list.queryKey({ projectId });
  const flows = useQuery(trpc.dashboard.flows.list.queryOptions({ projectId }));
  const { errors, validate } = useZodForm(CreateFlowInput);
  const [deleting, setDeleting] = useState<string | null>(null);
  const create = useMutation(
    trpc.dashboard.flows.create.mutationOptions({
      onSuccess: async (flow) => {
        await queryClient.invalidateQueries({ queryKey: listKey });
        router.push(`/${projectId}/flows/${flow.name}`);
      },
    }),
  );
  const remove = useMutation(
    trpc.dashboard.flows.delete.mutationOptions({
      onSuccess: () => setDeleting(null),
      onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
    }),
  );

  if (project.isPending) return <Loading>Loading the project…</Loading>;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = validate({
      projectId,
      name: String(form.get("name") ?? "").trim(),
      description: String(form.get("description") ?? "").trim() || undefined,
    });
    if (values) create.mutate(values);
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Flows</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Retrieval pipelines drawn as graphs: edit a draft, check it, deploy it to its own endpoint.
        </p>
      </div>
      {canEdit && (
        <Card label="Create a flow">
          <CardHeader title="Create a flow" />
          <form
            aria-label="Create flow"
            noValidate
            onSubmit={onSubmit}
            className="flex flex-wrap items-start gap-3 px-5 py-4"
          >
            <div className="w-64">
              <Field label="Name" error={errors.name} hint="a-z, 0-9 and '-': it becomes part of the URL">
                {(p) => <Input {...p} name="name" placeholder="support-answers" autoComplete="off" />}
              </Field>
            </div>
            <div className="min-w-64 flex-1">
              <Field label="Description" error={errors.description}>
                {(p) => <Input {...p} name="description" placeholder="Optional" />}
              </Field>
            </div>
            <Button type="submit" className="mt-6" disabled={create.isPending}>
              Create flow
            </Button>
            {create.isError && <ErrorAlert className="w-full">{create.error.message}</ErrorAlert>}
          </form>
        </Card>
      )}
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
          <div className="overflow-x-auto">
            <table aria-label="Flows" className="min-w-full text-left text-sm">
              <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
                <tr>
                  <th scope="col" className="px-5 py-2">
                    Name
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Serving
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Nodes
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Edited
                  </th>
                  {canEdit && (
                    <th scope="col" className="px-5 py-2">
                      <span className="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {flows.data.map((f) => (
                  <tr key={f.name}>
                    <td className="px-5 py-2">
                      <Link href={`/${projectId}/flows/${f.name}`} className="font-medium text-link hover:underline">
                        {f.name}
                      </Link>
                      {f.description && <p className="text-xs text-muted-foreground">{f.description}</p>}
                    </td>
                    <td className="px-3 py-2">
                      <FlowStatusBadge status={f.status} />
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {f.deployedRevision ? `revision ${f.deployedRevision}` : "—"}
                    </td>
                    <td className="px-3 py-2 tabular-nums">{f.nodes}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{new Date(f.updatedAt).toLocaleString()}</td>
                    {canEdit && (
                      <td className="px-5 py-2 text-right">
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={`Delete ${f.name}`}
                          onClick={() => setDeleting(f.name)}
                        >
                          Delete
                        </Button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
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
