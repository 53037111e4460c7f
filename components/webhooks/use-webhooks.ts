"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useZodForm } from "@/components/ui/use-zod-form";
import { CreateEndpointInput, type WebhookEventType } from "@/server/webhooks/webhooks.schema";

/** A secret just created or rotated: shown once, with the endpoint it signs for. */
export type ShownSecret = { endpointId: string; url: string; secret: string };

/** Refetches the endpoints and the delivery log after any change. */
const useRefresh = (projectId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.dashboard.webhooks.list.queryKey({ projectId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.dashboard.webhooks.deliveries.pathKey() }),
    ]);
};

/** The add form: URL, description, events (all checked to start), and the secret once created. */
export const useAddEndpoint = (projectId: string, onSecret: (shown: ShownSecret) => void) => {
  const trpc = useTRPC();
  const refresh = useRefresh(projectId);
  const { errors, validate } = useZodForm(CreateEndpointInput);
  const [events, setEvents] = useState<WebhookEventType[]>(["build.completed", "build.failed"]);
  const create = useMutation(
    trpc.dashboard.webhooks.create.mutationOptions({
      onSuccess: async (result) => {
        onSecret({ endpointId: result.endpoint.id, url: result.endpoint.url, secret: result.secret });
        await refresh();
      },
    }),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const values = validate({ url: form.get("url"), description: form.get("description") ?? "", events });
    if (values) create.mutate({ projectId, ...values }, { onSuccess: () => formElement.reset() });
  };
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((all) => (on ? [...all, type] : all.filter((t) => t !== type)));
  return { errors, events, toggle, create, onSubmit };
};

/** What an endpoint's card does: change events, enable or disable, test, rotate the secret, delete. */
export const useEndpointActions = (projectId: string, onSecret: (shown: ShownSecret) => void) => {
  const trpc = useTRPC();
  const refresh = useRefresh(projectId);
  const update = useMutation(trpc.dashboard.webhooks.update.mutationOptions({ onSettled: refresh }));
  const sendTest = useMutation(trpc.dashboard.webhooks.sendTest.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.dashboard.webhooks.remove.mutationOptions({ onSettled: refresh }));
  const rotate = useMutation(
    trpc.dashboard.webhooks.rotateSecret.mutationOptions({
      onSuccess: (result) =>
        onSecret({ endpointId: result.endpoint.id, url: result.endpoint.url, secret: result.secret }),
    }),
  );
  return { update, sendTest, remove, rotate };
};

/** The delivery log of one endpoint (or all): polled, faster while a delivery is still pending. */
export const useDeliveries = (projectId: string, endpointId: string | undefined) => {
  const trpc = useTRPC();
  return useQuery(
    trpc.dashboard.webhooks.deliveries.queryOptions(
      { projectId, endpointId },
      { refetchInterval: (q) => (q.state.data?.some((d) => d.status === "pending") ? 2000 : 5000) },
    ),
  );
};
