"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { EventCheckboxes } from "./event-checkboxes";
import { useAddEndpoint, type ShownSecret } from "./use-webhooks";

/** URL, description and events of a new endpoint; its secret is shown once above the list (SecretNotice). */
export const AddEndpoint = ({ projectId, onSecret }: { projectId: string; onSecret: (s: ShownSecret) => void }) => {
  const { errors, events, toggle, create, onSubmit } = useAddEndpoint(projectId, onSecret);
  return (
    <Card label="Add an endpoint">
      <CardHeader
        title="Add an endpoint"
        description="Quarry POSTs each chosen event to this URL, signed with the endpoint's own secret."
      />
      <form aria-label="Add endpoint" noValidate onSubmit={onSubmit} className="space-y-4 px-5 py-4">
        <div className="grid gap-4 md:grid-cols-2">
          <Field label="URL" error={errors.url}>
            {(p) => <Input {...p} name="url" type="url" placeholder="https://example.com/quarry-webhooks" />}
          </Field>
          <Field label="Description" error={errors.description} hint="Optional: what receives these events">
            {(p) => <Input {...p} name="description" placeholder="e.g. Slack relay" />}
          </Field>
        </div>
        <EventCheckboxes legend="Events" selected={events} onToggle={toggle} error={errors.events} />
        {create.error && <ErrorAlert>{create.error.message}</ErrorAlert>}
        <Button type="submit" disabled={create.isPending}>
          Add endpoint
        </Button>
      </form>
    </Card>
  );
};
