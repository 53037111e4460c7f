"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useZodForm } from "@/components/ui/use-zod-form";
import { CreateTeamInput } from "@/server/teams/teams.schema";

/** The owner's card to rename the team; the account is read again so the new name shows everywhere. */
export const RenameTeam = ({ teamId, name }: { teamId: string; name: string | undefined }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rename = useMutation(
    trpc.dashboard.teams.rename.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.account.me.queryKey() }),
    }),
  );
  const renameForm = useZodForm(CreateTeamInput);
  return (
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
            {(p) => <Input {...p} name="name" defaultValue={name} key={name} />}
          </Field>
        </div>
        <Button type="submit" disabled={rename.isPending}>
          Rename
        </Button>
      </form>
    </Card>
  );
};
