"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";

/** The team's members and the caller, with role changes and removals (each re-reads the members). */
export const useTeamMembers = (teamId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.dashboard.account.me.queryOptions());
  const members = useQuery(trpc.dashboard.teams.members.queryOptions({ teamId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.teams.members.queryKey({ teamId }) });
  const changeRole = useMutation(trpc.dashboard.teams.changeRole.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.dashboard.teams.removeMember.mutationOptions({ onSettled: refresh }));
  const [removing, setRemoving] = useState<{ id: string; email: string } | null>(null);
  return { me, members, changeRole, remove, removing, setRemoving };
};

export type TeamMembersState = ReturnType<typeof useTeamMembers>;
