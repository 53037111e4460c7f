"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { AppRouter } from "@/server/trpc/root";
import type { WebhookEventType } from "@/server/webhooks/webhooks.schema";
import { EventCheckboxes } from "./event-checkboxes";
import { useEndpointActions, type ShownSecret } from "./use-webhooks";

export type EndpointRow = inferRouterOutputs<AppRouter>["dashboard"]["webhooks"]["list"][number];

/** Why Quarry stopped sending, and the way back (the admin fixes the receiver, tests it, enables it again). */
const DisabledBanner = ({
  endpoint,
  onEnable,
  pending,
}: {
  endpoint: EndpointRow;
  onEnable: () => void;
  pending: boolean;
}) => (
  <div
    role="alert"
    className="mx-5 mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
  >
    <p className="font-medium">This endpoint is disabled: no events are sent to it.</p>
    <p className="mt-1 break-words">{endpoint.disabledReason ?? "An admin disabled it."}</p>
    <p className="mt-1 text-xs">Fix the receiver, check it with &ldquo;Send test event&rdquo;, then enable it again.</p>
    <Button size="sm" className="mt-2" onClick={onEnable} disabled={pending}>
      Enable again
    </Button>
  </div>
);

/** One endpoint: address, state, events (changed in place), and its actions. */
export const EndpointCard = ({
  projectId,
  endpoint,
  onSecret,
  onDelete,
  onShowDeliveries,
}: {
  projectId: string;
  endpoint: EndpointRow;
  onSecret: (shown: ShownSecret) => void;
  onDelete: (endpoint: EndpointRow) => void;
  onShowDeliveries: (endpointId: string) => void;
}) => {
  const { update, sendTest, rotate } = useEndpointActions(projectId, onSecret);
  const ids = { projectId, endpointId: endpoint.id };
  const toggle = (type: WebhookEventType, on: boolean) => {
    const events = on ? [...endpoint.events, type] : endpoint.events.filter((t) => t !== type);
    if (events.length) update.mutate({ ...ids, events });
  };
  const error = update.error ?? sendTest.error ?? rotate.error;
  return (
    <Card label={`Endpoint ${endpoint.url}`}>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-border px-5 py-4">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          {endpoint.description && <p className="mt-0.5 text-sm text-muted-foreground">{endpoint.description}</p>}
        </div>
        {endpoint.enabled ? (
          <Badge tone={endpoint.consecutiveFailures ? "warning" : "success"}>
            {endpoint.consecutiveFailures ? `enabled · ${endpoint.consecutiveFailures} failed in a row` : "enabled"}
          </Badge>
        ) : (
          <Badge tone="danger">disabled</Badge>
        )}
      </div>
      {!endpoint.enabled && (
        <DisabledBanner
          endpoint={endpoint}
          pending={update.isPending}
          onEnable={() => update.mutate({ ...ids, enabled: true })}
        />
      )}
      <div className="space-y-4 px-5 py-4">
        <EventCheckboxes
          legend="Events sent"
          selected={endpoint.events}
          onToggle={toggle}
          disabled={update.isPending}
        />
        {sendTest.data && (
          <p role="status" className="text-sm text-muted-foreground">
            Test event queued; its delivery shows in the log below.
          </p>
        )}
        {error && <ErrorAlert>{error.message}</ErrorAlert>}
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => sendTest.mutate(ids)} disabled={sendTest.isPending}>
            Send test event
          </Button>
          <Button size="sm" variant="secondary" onClick={() => onShowDeliveries(endpoint.id)}>
            Show deliveries
          </Button>
          <Button size="sm" variant="secondary" onClick={() => rotate.mutate(ids)} disabled={rotate.isPending}>
            Rotate secret
          </Button>
          {endpoint.enabled && (
            <Button size="sm" variant="secondary" onClick={() => update.mutate({ ...ids, enabled: false })}>
              Disable
            </Button>
          )}
          <Button size="sm" variant="ghost" aria-label={`Delete ${endpoint.url}`} onClick={() => onDelete(endpoint)}>
            Delete
          </Button>
        </div>
      </div>
    </Card>
  );
};
