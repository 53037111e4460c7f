"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { useZodForm } from "@/components/ui/use-zod-form";
import { CreateInvitationInput, roleAtLeast, TEAM_ROLES, type TeamRole } from "@/server/teams/teams.schema";
import { PendingInvitations } from "./pending-invitations";

/** Invitation links: made here, shown once, copied to whoever should join; pending ones can be revoked. */
export const Invitations = ({ teamId, myRole }: { teamId: string; myRole: TeamRole }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listKey = trpc.dashboard.teams.invitations.queryKey({ teamId });
  const { errors, validate } = useZodForm(CreateInvitationInput);
  const [created, setCreated] = useState<{ link: string; mailed: boolean } | null>(null);
  const invite = useMutation(
    trpc.dashboard.teams.invite.mutationOptions({
      onSuccess: async (result) => {
        setCreated({ link: new URL(result.path, window.location.origin).toString(), mailed: result.mailed });
        await queryClient.invalidateQueries({ queryKey: listKey });
      },
    }),
  );
  const roles = TEAM_ROLES.filter((r) => r !== "owner" || roleAtLeast(myRole, "owner"));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = validate({ role: form.get("role"), email: form.get("email") });
    if (values) invite.mutate({ teamId, ...values });
  };

  return (
    <Card label="Invitations">
      <CardHeader
        title="Invite people"
        description="Anyone with the link can join with the role you pick; each link works once."
      />
      <form
        aria-label="Create invitation"
        noValidate
        onSubmit={onSubmit}
        className="flex flex-wrap items-end gap-3 px-5 py-4"
      >
        <Field label="Role" error={errors.role}>
          {(p) => (
            <Select {...p} name="role" defaultValue="member" className="w-36">
              {roles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="min-w-60 flex-1">
          <Field
            label="Email (optional)"
            error={errors.email}
            hint="Only this address may accept; mailed when SMTP is set up."
          >
            {(p) => <Input {...p} name="email" type="email" placeholder="name@example.com" />}
          </Field>
        </div>
        <Button type="submit" disabled={invite.isPending}>
          Create invitation link
        </Button>
      </form>
      {invite.error && <ErrorAlert className="mx-5 mb-4">{invite.error.message}</ErrorAlert>}
      {created && (
        <Notice className="mx-5 mb-4">
          <p className="font-medium">Invitation link (shown once{created.mailed ? ", also mailed" : ""}):</p>
          <div className="mt-2 flex items-center gap-2">
            <code
              aria-label="Invitation link"
              className="min-w-0 flex-1 truncate rounded bg-card px-2 py-1 font-mono text-xs"
            >
              {created.link}
            </code>
            <CopyButton text={created.link} label="Copy link" />
          </div>
        </Notice>
      )}
      <PendingInvitations teamId={teamId} />
    </Card>
  );
};
