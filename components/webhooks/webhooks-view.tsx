"use client";

import { useQuery } from "@tanstack/react-query";
import { useRef, useState, type MouseEvent, type RefObject } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Select } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { AddEndpoint } from "./add-endpoint";
import { DeliveriesTable } from "./deliveries-table";
import { EndpointCard, type EndpointRow } from "./endpoint-card";
import { useDeliveries, useEndpointActions, type ShownSecret } from "./use-webhooks";

/**
 * The signing secret, once, in a modal dialog: after it is closed the secret cannot be read again (only rotated).
 * Focus goes back to the button that asked for it (disabled while its request ran, so the browser lost track of it).
 */
const SecretDialog = ({
  shown,
  onClose,
  returnFocus,
}: {
  shown: ShownSecret | null;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}) => (
  <Dialog open={!!shown} onClose={onClose} title="Webhook secret, shown once" returnFocus={returnFocus}>
    {shown && (
      <div className="space-y-3 text-sm">
        <p className="break-words">
          Quarry signs every request to <span className="font-medium">{shown.url}</span> with this secret. Copy it now:
          it cannot be shown again, only rotated.
        </p>
        <code aria-label="Signing secret" className="block rounded bg-muted px-2 py-1 font-mono text-xs break-all">
          {shown.secret}
        </code>
        <p className="text-xs text-muted-foreground">
          Verify each request&apos;s <code>webhook-signature</code> with it (any Standard Webhooks library).
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <CopyButton text={shown.secret} label="Copy secret" />
          <Button size="sm" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    )}
  </Dialog>
);

const DeliveryLog = ({
  projectId,
  endpoints,
  endpointId,
  setEndpointId,
}: {
  projectId: string;
  endpoints: EndpointRow[];
  endpointId: string;
  setEndpointId: (id: string) => void;
}) => {
  const deliveries = useDeliveries(projectId, endpointId || undefined);
  const urls = new Map(endpoints.map((e) => [e.id, e.url]));
  return (
    <Card label="Deliveries">
      <CardHeader
        title="Deliveries"
        description="The newest 50. A failed attempt is retried (by default after 5 s, 1 min, 10 min, 1 h and 6 h)."
        actions={
          <Select
            aria-label="Endpoint"
            value={endpointId}
            onChange={(e) => setEndpointId(e.target.value)}
            className="h-8 w-full text-sm sm:w-64"
          >
            <option value="">All endpoints</option>
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.url}
              </option>
            ))}
          </Select>
        }
      />
      {deliveries.isPending && <Loading />}
      {deliveries.isError && <ErrorAlert className="m-5">{deliveries.error.message}</ErrorAlert>}
      {deliveries.data?.length === 0 && (
        <EmptyState title="No deliveries yet">Send a test event to see one.</EmptyState>
      )}
      {deliveries.data && deliveries.data.length > 0 && <DeliveriesTable deliveries={deliveries.data} urls={urls} />}
    </Card>
  );
};

/** A project's webhooks: add an endpoint (secret shown once), its events and state, the delivery log. Admins only. */
export const WebhooksView = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const project = useProject(projectId);
  const isAdmin = project.can("admin");
  const endpoints = useQuery(trpc.dashboard.webhooks.list.queryOptions({ projectId }, { enabled: isAdmin }));
  const [shown, setShown] = useState<ShownSecret | null>(null);
  /** The button last pressed on the page, outside dialogs: the one a secret dialog was opened by. */
  const pressed = useRef<HTMLElement | null>(null);
  const notePressed = (e: MouseEvent) => {
    const button = e.target instanceof Element ? e.target.closest("button") : null;
    if (button && !button.closest("dialog")) pressed.current = button;
  };
  const [deleting, setDeleting] = useState<EndpointRow | null>(null);
  const { remove } = useEndpointActions(projectId, setShown);
  const [logEndpoint, setLogEndpoint] = useState("");
  const showDeliveries = (id: string) => {
    setLogEndpoint(id);
    document.getElementById("delivery-log")?.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  if (project.isPending) return <Loading />;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  if (!isAdmin) {
    return <ErrorAlert>Webhooks are managed by the team&apos;s admins; your role is {project.data.role}.</ErrorAlert>;
  }

  return (
    <div className="space-y-6" onClickCapture={notePressed}>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Tell your systems when a build ends, a source is deleted, a flow deploys or an evaluation finishes, instead of
          polling. Requests are signed per Standard Webhooks.
        </p>
      </div>
      <SecretDialog shown={shown} onClose={() => setShown(null)} returnFocus={pressed} />
      <AddEndpoint projectId={projectId} onSecret={setShown} />

      {endpoints.isPending && <Loading />}
      {endpoints.isError && <ErrorAlert>{endpoints.error.message}</ErrorAlert>}
      {endpoints.data?.length === 0 && (
        <Card label="Endpoints">
          <EmptyState title="No endpoints yet">Add one above to start receiving events.</EmptyState>
        </Card>
      )}
      {endpoints.data?.map((endpoint) => (
        <EndpointCard
          key={endpoint.id}
          projectId={projectId}
          endpoint={endpoint}
          onSecret={setShown}
          onDelete={setDeleting}
          onShowDeliveries={showDeliveries}
        />
      ))}
      {endpoints.data && (
        <div id="delivery-log">
          <DeliveryLog
            projectId={projectId}
            endpoints={endpoints.data}
            endpointId={logEndpoint}
            setEndpointId={setLogEndpoint}
          />
        </div>
      )}

      <ConfirmDialog
        open={!!deleting}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting && remove.mutate({ projectId, endpointId: deleting.id }, { onSuccess: () => setDeleting(null) })
        }
      >
        {deleting?.url} receives no more events, and its delivery log is deleted with it.
        {remove.error && <ErrorAlert className="mt-3">{remove.error.message}</ErrorAlert>}
      </ConfirmDialog>
    </div>
  );
};
