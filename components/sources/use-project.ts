"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { roleAtLeast, type TeamRole } from "@/server/teams/teams.schema";

/** The project and the caller's role in it; `can(role)` hides what the server would refuse anyway. */
export const useProject = (projectId: string) => {
  const trpc = useTRPC();
  const query = useQuery(trpc.dashboard.projects.get.queryOptions({ projectId }));
  const role = query.data?.role;
  return { ...query, can: (minimum: TeamRole) => !!role && roleAtLeast(role, minimum) };
};
