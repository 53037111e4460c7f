"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useZodForm } from "@/components/ui/use-zod-form";
import { CreateTokenInput } from "@/server/auth/api-tokens.schema";

/** The create form's permissions and errors, and the token just created (shown once). */
export const useCreateToken = (projectId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { errors, validate } = useZodForm(CreateTokenInput);
  const [permissions, setPermissions] = useState<string[]>(["read", "write"]);
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const create = useMutation(
    trpc.dashboard.tokens.create.mutationOptions({
      onSuccess: async (result) => {
        setCreated({ token: result.token, name: result.name });
        await queryClient.invalidateQueries({ queryKey: trpc.dashboard.tokens.list.queryKey({ projectId }) });
      },
    }),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = validate({ name: new FormData(event.currentTarget).get("name"), permissions });
    if (values) create.mutate({ projectId, ...values });
  };
  const togglePermission = (p: string, on: boolean) =>
    setPermissions((all) => (on ? [...all, p] : all.filter((x) => x !== p)));
  return { errors, permissions, togglePermission, created, create, onSubmit };
};

/** The token being confirmed for revocation, and the revocation. */
export const useRevokeToken = (projectId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const revoke = useMutation(
    trpc.dashboard.tokens.revoke.mutationOptions({
      onSuccess: () => setRevoking(null),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.tokens.list.queryKey({ projectId }) }),
    }),
  );
  return { revoking, setRevoking, revoke };
};
