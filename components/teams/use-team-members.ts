"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useToast } from "@/components/ui/toast";

/** The team's members and the caller, with role changes and removals (each re-reads the members). */
export const useTeamMembers = (teamId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.dashboard.account.me.queryOptions());
  const members = useQuery(trpc.dashboard.teams.members.queryOptions({ teamId }));
  const toast = useToast();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.teams.members.queryKey({ teamId }) });
  // A role select changes in place; the toast confirms the server took it (an error shows above the table).
  const emailOf = (userId: string) => members.data?.members.find((m) => m.id === userId)?.email ?? "The member";
  const changeRole = useMutation(
    trpc.dashboard.teams.changeRole.mutationOptions({
      onSettled: refresh,
      onSuccess: (_, input) => toast(`${emailOf(input.userId)} is now ${input.role}`),
    }),
  );
  const remove = useMutation(
    trpc.dashboard.teams.removeMember.mutationOptions({
      onSettled: refresh,
      onSuccess: (_, input) => toast(`${emailOf(input.userId)} was removed from the team`),
    }),
  );
  const [removing, setRemoving] = useState<{ id: string; email: string } | null>(null);
  // A reset link is shown once, above the table, until another is issued.
  const [resetLink, setResetLink] = useState<{ email: string; link: string; expiresAt: Date } | null>(null);
  const issueReset = useMutation(
    trpc.dashboard.teams.issueResetLink.mutationOptions({
      onMutate: () => setResetLink(null),
      onSuccess: (result, input) =>
        setResetLink({
          email: emailOf(input.userId),
          link: new URL(result.path, window.location.origin).toString(),
          expiresAt: result.expiresAt,
        }),
    }),
  );
  return { me, members, changeRole, remove, removing, setRemoving, issueReset, resetLink };
};

export type TeamMembersState = ReturnType<typeof useTeamMembers>;
