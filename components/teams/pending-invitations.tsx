"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState, Loading } from "@/components/ui/states";

/** Invitations not yet accepted, each revocable. */
export const PendingInvitations = ({ teamId }: { teamId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invitations = useQuery(trpc.dashboard.teams.invitations.queryOptions({ teamId }));
  const revoke = useMutation(
    trpc.dashboard.teams.revokeInvitation.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.dashboard.teams.invitations.queryKey({ teamId }) }),
    }),
  );
  return (
    <div className="border-t border-border">
      <h3 className="px-5 pt-4 text-sm font-semibold">Pending invitations</h3>
      {invitations.isPending ? (
        <Loading />
      ) : invitations.isError ? (
        <ErrorAlert className="m-5">{invitations.error.message}</ErrorAlert>
      ) : invitations.data.length === 0 ? (
        <EmptyState title="No pending invitations" />
      ) : (
        <ul aria-label="Pending invitations" className="divide-y divide-border">
          {invitations.data.map((inv) => (
            <li key={inv.id} className="flex flex-wrap items-center justify-between gap-2 px-5 py-3 text-sm">
              <span>
                <span className="font-medium">{inv.role}</span>
                {inv.email ? ` · ${inv.email}` : " · anyone with the link"} · expires{" "}
                {new Date(inv.expiresAt).toLocaleDateString()}
              </span>
              <Button
                variant="secondary"
                size="sm"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ teamId, invitationId: inv.id })}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
