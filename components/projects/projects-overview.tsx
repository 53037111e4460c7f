"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { useZodForm } from "@/components/ui/use-zod-form";
import { ProjectName } from "@/server/projects/projects.schema";
import { CreateTeamInput, roleAtLeast, type TeamRole } from "@/server/teams/teams.schema";
import { z } from "zod";

const NewProjectForm = ({ teamId }: { teamId: string }) => {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { errors, validate } = useZodForm(z.object({ name: ProjectName }));
  const create = useMutation(
    trpc.dashboard.projects.create.mutationOptions({
      onSuccess: async (project) => {
        await queryClient.invalidateQueries({ queryKey: trpc.dashboard.account.me.queryKey() });
        router.push(`/${project.id}/sources`);
      },
    }),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = validate({ name: new FormData(event.currentTarget).get("name") });
    if (values) create.mutate({ teamId, name: values.name });
  };
  return (
    <form aria-label="New project" noValidate onSubmit={onSubmit} className="flex flex-wrap items-end gap-3 px-5 py-4">
      <div className="min-w-60 flex-1">
        <Field label="Project name" error={errors.name ?? create.error?.message}>
          {(p) => <Input {...p} name="name" placeholder="e.g. research-papers" />}
        </Field>
      </div>
      <Button type="submit" disabled={create.isPending}>
        Create project
      </Button>
    </form>
  );
};

const NewTeamForm = () => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { errors, validate } = useZodForm(CreateTeamInput);
  const [open, setOpen] = useState(false);
  const create = useMutation(
    trpc.dashboard.account.createTeam.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.dashboard.account.me.queryKey() });
      },
    }),
  );
  if (!open) {
    return (
      <Button variant="secondary" onClick={() => setOpen(true)}>
        New team
      </Button>
    );
  }
  return (
    <form
      aria-label="New team"
      noValidate
      className="flex items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const values = validate({ name: new FormData(event.currentTarget).get("name") });
        if (values) create.mutate(values);
      }}
    >
      <Field label="Team name" error={errors.name ?? create.error?.message}>
        {(p) => <Input {...p} name="name" autoFocus />}
      </Field>
      <Button type="submit" disabled={create.isPending}>
        Create team
      </Button>
    </form>
  );
};

type ProjectRow = { id: string; name: string; createdAt: Date; deleting: boolean; deletionFailed: boolean };
type TeamView = { id: string; name: string; role: TeamRole; projects: ProjectRow[] };

/**
 * A project of the list: a link to its sources; one being deleted shows "Deleting…" (or "Deletion failed") instead,
 * and only its admins get a link, to its settings where the progress (or a failed deletion's retry) is.
 */
const ProjectItem = ({ project, isAdmin }: { project: ProjectRow; isAdmin: boolean }) => {
  const row = "flex items-center justify-between px-5 py-3";
  if (!project.deleting) {
    return (
      <Link href={`/${project.id}/sources`} className={`${row} hover:bg-muted`}>
        <span className="font-medium">{project.name}</span>
        <span className="text-sm text-muted-foreground">
          created {new Date(project.createdAt).toLocaleDateString()}
        </span>
      </Link>
    );
  }
  const label = project.deletionFailed ? (
    <span className="text-sm text-destructive">Deletion failed</span>
  ) : (
    <span className="text-sm text-muted-foreground">Deleting…</span>
  );
  return isAdmin ? (
    <Link href={`/${project.id}/settings/general`} className={`${row} hover:bg-muted`}>
      <span className="font-medium">{project.name}</span>
      {label}
    </Link>
  ) : (
    <div className={row}>
      <span className="font-medium text-muted-foreground">{project.name}</span>
      {label}
    </div>
  );
};

const TeamCard = ({ team }: { team: TeamView }) => (
  <Card label={`Team ${team.name}`}>
    <CardHeader
      title={team.name}
      description={`Your role: ${team.role}`}
      actions={
        <span className="flex gap-4">
          <Link href={`/teams/${team.id}`} className="text-sm font-medium text-link hover:underline">
            Members and invitations
          </Link>
          {roleAtLeast(team.role, "admin") && (
            <Link href={`/teams/${team.id}/providers`} className="text-sm font-medium text-link hover:underline">
              Model providers
            </Link>
          )}
        </span>
      }
    />
    {team.projects.length === 0 ? (
      <EmptyState title="No projects yet">
        {roleAtLeast(team.role, "admin") ? "Create the first one below." : "An admin of this team can create one."}
      </EmptyState>
    ) : (
      <ul aria-label={`Projects of ${team.name}`} className="divide-y divide-border">
        {team.projects.map((project) => (
          <li key={project.id}>
            <ProjectItem project={project} isAdmin={roleAtLeast(team.role, "admin")} />
          </li>
        ))}
      </ul>
    )}
    {roleAtLeast(team.role, "admin") && (
      <div className="border-t border-border">
        <NewProjectForm teamId={team.id} />
      </div>
    )}
  </Card>
);

export const ProjectsOverview = () => {
  const trpc = useTRPC();
  const me = useQuery(trpc.dashboard.account.me.queryOptions());
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <NewTeamForm />
      </div>
      {me.isPending && <Loading>Loading your teams…</Loading>}
      {me.isError && <ErrorAlert>Could not load your teams: {me.error.message}</ErrorAlert>}
      {me.data?.teams.length === 0 && (
        <Card>
          <EmptyState title="You are not in a team yet">
            Ask a team admin for an invitation link, or create a team of your own.
          </EmptyState>
        </Card>
      )}
      {me.data?.teams.map((team) => (
        <TeamCard key={team.id} team={team} />
      ))}
    </div>
  );
};
