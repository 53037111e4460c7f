"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { Loading } from "@/components/ui/states";
import { useZodForm } from "@/components/ui/use-zod-form";
import { CreateTeamInput, ROLE_DESCRIPTIONS, roleAtLeast, TEAM_ROLES } from "@/server/teams/teams.schema";
import { Invitations } from "./invitations";

export const TeamSettings = ({ teamId }: { teamId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const membersKey = trpc.dashboard.teams.members.queryKey({ teamId });
  const me = useQuery(trpc.dashboard.account.me.queryOptions());
  const members = useQuery(trpc.dashboard.teams.members.queryOptions({ teamId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: membersKey });
  const changeRole = useMutation(trpc.dashboard.teams.changeRole.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.dashboard.teams.removeMember.mutationOptions({ onSettled: refresh }));
  const rename = useMutation(
    trpc.dashboard.teams.rename.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.account.me.queryKey() }),
    }),
  );
  const renameForm = useZodForm(CreateTeamInput);
  const [removing, setRemoving] = useState<{ id: string; email: string } | null>(null);

  const team = me.data?.teams.find((t) => t.id === teamId);
  if (members.isPending) return <Loading>Loading the team…</Loading>;
  if (members.isError) return <ErrorAlert>{members.error.message}</ErrorAlert>;
  const myRole = members.data.role;
  const isAdmin = roleAtLeast(myRole, "admin");

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{team?.name ?? "Team"}</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Your role: <strong className="text-foreground">{myRole}</strong> ({ROLE_DESCRIPTIONS[myRole]})
        </p>
      </div>

      <Card label="Members">
        <CardHeader title="Members" description={`${members.data.members.length} in this team`} />
        {(changeRole.error || remove.error) && (
          <ErrorAlert className="mx-5 mt-4">{(changeRole.error ?? remove.error)?.message}</ErrorAlert>
        )}
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Members</caption>
          <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="px-5 py-2">
                Name
              </th>
              <th scope="col" className="px-3 py-2">
                Email
              </th>
              <th scope="col" className="px-3 py-2">
                Role
              </th>
              <th scope="col" className="px-5 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {members.data.members.map((m) => {
              const manageable = isAdmin && (m.role !== "owner" || myRole === "owner") && m.id !== me.data?.userId;
              return (
                <tr key={m.id}>
                  <td className="px-5 py-2 font-medium">{m.name}</td>
                  <td className="px-3 py-2 text-muted-foreground">{m.email}</td>
                  <td className="px-3 py-2">
                    {manageable ? (
                      <Select
                        aria-label={`Role of ${m.email}`}
                        value={m.role}
                        className="h-8 w-32"
                        disabled={changeRole.isPending}
                        onChange={(e) =>
                          changeRole.mutate({
                            teamId,
                            userId: m.id,
                            role: e.target.value as (typeof TEAM_ROLES)[number],
                          })
                        }
                      >
                        {TEAM_ROLES.filter((r) => r !== "owner" || myRole === "owner").map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </Select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td className="px-5 py-2 text-right">
                    {manageable && (
                      <Button variant="secondary" size="sm" onClick={() => setRemoving({ id: m.id, email: m.email })}>
                        Remove
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Card>

      {isAdmin && <Invitations teamId={teamId} myRole={myRole} />}

      {myRole === "owner" && (
        <Card label="Team settings">
          <CardHeader title="Team settings" />
          <form
            aria-label="Rename team"
            noValidate
            className="flex flex-wrap items-end gap-3 px-5 py-4"
            onSubmit={(event) => {
              event.preventDefault();
              const values = renameForm.validate({ name: new FormData(event.currentTarget).get("name") });
              if (values) rename.mutate({ teamId, name: values.name });
            }}
          >
            <div className="min-w-60 flex-1">
              <Field label="Team name" error={renameForm.errors.name ?? rename.error?.message}>
                {(p) => <Input {...p} name="name" defaultValue={team?.name} key={team?.name} />}
              </Field>
            </div>
            <Button type="submit" disabled={rename.isPending}>
              Rename
            </Button>
          </form>
        </Card>
      )}

      <ConfirmDialog
        open={!!removing}
        title="Remove member?"
        confirmLabel="Remove member"
        pending={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing && remove.mutate({ teamId, userId: removing.id }, { onSettled: () => setRemoving(null) })
        }
      >
        {removing?.email} loses access to every project of this team at once.
      </ConfirmDialog>
    </div>
  );
};
