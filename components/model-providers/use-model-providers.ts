"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { AppRouter } from "@/server/trpc/root";

export type ProviderRow = inferRouterOutputs<AppRouter>["dashboard"]["modelProviders"]["list"]["providers"][number];

/**
 * The team's providers for its admins (the caller's role is read first, so others get a sentence, not a 403), with
 * the mutations that change them; each re-reads the list.
 */
export const useModelProviders = (teamId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.dashboard.teams.members.queryOptions({ teamId }));
  const role = members.data?.role;
  const isAdmin = role === "admin" || role === "owner";
  const list = useQuery(trpc.dashboard.modelProviders.list.queryOptions({ teamId }, { enabled: isAdmin }));
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.dashboard.modelProviders.list.queryKey({ teamId }) });
  const remove = useMutation(trpc.dashboard.modelProviders.remove.mutationOptions({ onSettled: refresh }));
  const test = useMutation(trpc.dashboard.modelProviders.test.mutationOptions({ onSettled: refresh }));
  const [editing, setEditing] = useState<ProviderRow | null>(null);
  const [removing, setRemoving] = useState<ProviderRow | null>(null);
  return { members, role, isAdmin, list, refresh, remove, test, editing, setEditing, removing, setRemoving };
};

export type ModelProvidersState = ReturnType<typeof useModelProviders>;
