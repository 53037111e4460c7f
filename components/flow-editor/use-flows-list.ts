"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useZodForm } from "@/components/ui/use-zod-form";
import { CreateFlowInput } from "@/server/flows/editor.schema";

/** The create form's validation and the creation, which opens the new flow on the canvas. */
export const useCreateFlow = (projectId: string) => {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { errors, validate } = useZodForm(CreateFlowInput);
  const create = useMutation(
    trpc.dashboard.flows.create.mutationOptions({
      onSuccess: async (flow) => {
        await queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.list.queryKey({ projectId }) });
        router.push(`/${projectId}/flows/${flow.name}`);
      },
    }),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = validate({
      projectId,
      name: String(form.get("name") ?? "").trim(),
      description: String(form.get("description") ?? "").trim() || undefined,
    });
    if (values) create.mutate(values);
  };
  return { errors, create, onSubmit };
};

/** The flow being confirmed for deletion, and the deletion. */
export const useDeleteFlow = (projectId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useMutation(
    trpc.dashboard.flows.delete.mutationOptions({
      onSuccess: () => setDeleting(null),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.list.queryKey({ projectId }) }),
    }),
  );
  return { deleting, setDeleting, remove };
};
