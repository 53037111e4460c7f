"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useCreateFlow } from "./use-flows-list";

/** Name and description of a new flow; created, it opens on the canvas. */
export const CreateFlow = ({ projectId }: { projectId: string }) => {
  const { errors, create, onSubmit } = useCreateFlow(projectId);
  return (
    <Card label="Create a flow">
      <CardHeader title="Create a flow" />
      <form
        aria-label="Create flow"
        noValidate
        onSubmit={onSubmit}
        className="flex flex-wrap items-start gap-3 px-5 py-4"
      >
        <div className="w-64">
          <Field label="Name" error={errors.name} hint="a-z, 0-9 and '-': it becomes part of the URL">
            {(p) => <Input {...p} name="name" placeholder="support-answers" autoComplete="off" />}
          </Field>
        </div>
        <div className="min-w-64 flex-1">
          <Field label="Description" error={errors.description}>
            {(p) => <Input {...p} name="description" placeholder="Optional" />}
          </Field>
        </div>
        <Button type="submit" className="mt-6" disabled={create.isPending}>
          Create flow
        </Button>
        {create.isError && <ErrorAlert className="w-full">{create.error.message}</ErrorAlert>}
      </form>
    </Card>
  );
};
