"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Loading } from "@/components/ui/states";
import { ProjectName } from "@/server/projects/projects.schema";
import { DeleteProject } from "./delete-project";

/** The project's own settings (admins): its name. API tokens, flows and links hold its id, so a rename breaks none. */
export const ProjectSettingsView = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const project = useProject(projectId);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useMutation(
    trpc.dashboard.projects.rename.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(),
    }),
  );
  if (project.isPending) return <Loading>Loading the project…</Loading>;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  const canEdit = project.can("admin");

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = ProjectName.safeParse(new FormData(event.currentTarget).get("name"));
    setProblem(parsed.success ? null : parsed.error.issues[0]!.message);
    if (parsed.success) rename.mutate({ projectId, name: parsed.data });
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Project settings</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          {canEdit ? "Admins of the team change these." : "Only admins of the team change these."}
        </p>
      </div>
      <Card label="Name">
        <CardHeader title="Name" description="Shown in the dashboard and the CLI's --project; tokens keep working." />
        <form
          aria-label="Rename project"
          noValidate
          onSubmit={onSubmit}
          className="flex flex-wrap items-start gap-3 px-5 py-4"
        >
          <div className="w-72 max-w-full">
            <Field label="Project name" error={problem ?? undefined}>
              {(p) => (
                <Input
                  {...p}
                  name="name"
                  defaultValue={project.data?.project.name}
                  disabled={!canEdit}
                  autoComplete="off"
                />
              )}
            </Field>
          </div>
          {canEdit && (
            <Button type="submit" className="mt-6" disabled={rename.isPending}>
              Rename
            </Button>
          )}
          {rename.isSuccess && (
            <p role="status" className="mt-8 text-sm text-muted-foreground">
              Renamed to {rename.data.name}.
            </p>
          )}
          {rename.isError && <ErrorAlert className="w-full">{rename.error.message}</ErrorAlert>}
        </form>
      </Card>
      {canEdit && project.data && (
        <DeleteProject
          projectId={projectId}
          name={project.data.project.name}
          deleting={project.data.project.deleting}
        />
      )}
    </div>
  );
};
