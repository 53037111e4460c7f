"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useZodForm } from "@/components/ui/use-zod-form";
import { ModelPriceInput } from "@/server/usage/usage.schema";
import type { Usage } from "./usage-tables";

const numberOrNull = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() !== "" ? Number(v) : null);

/** What the team pays per million tokens of each model; only admins see this card (the server checks too). */
export const ModelPrices = ({ projectId, usage }: { projectId: string; usage: Usage }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.usage.summary.pathKey() });
  const { errors, validate } = useZodForm(ModelPriceInput);
  const save = useMutation(trpc.dashboard.usage.setPrice.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.dashboard.usage.removePrice.mutationOptions({ onSuccess: refresh }));
  const models = [...new Set(usage.byModel.map((m) => m.model))];

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const values = validate({
      model: form.get("model"),
      inputPerMillion: numberOrNull(form.get("inputPerMillion")),
      outputPerMillion: numberOrNull(form.get("outputPerMillion")),
    });
    if (values) save.mutate({ projectId, ...values });
  };

  return (
    <Card label="Prices">
      <CardHeader
        title="Prices"
        description="Per million tokens, for the whole team. Cost is shown for models with a price."
      />
      {usage.prices.length > 0 && (
        <ul aria-label="Model prices" className="divide-y divide-border">
          {usage.prices.map((p) => (
            <li key={p.model} className="flex items-center gap-4 px-5 py-2 text-sm">
              <span className="font-mono text-xs">{p.model}</span>
              <span className="text-muted-foreground">
                {p.inputPerMillion} in / {p.outputPerMillion} out
              </span>
              <Button
                variant="secondary"
                size="sm"
                className="ml-auto"
                aria-label={`Remove the price of ${p.model}`}
                onClick={() => remove.mutate({ projectId, model: p.model })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        aria-label="Set a price"
        noValidate
        onSubmit={onSubmit}
        className="flex flex-wrap items-start gap-4 px-5 py-4"
      >
        <Field label="Model" error={errors.model}>
          {(p) => <Input {...p} name="model" list="usage-models" className="w-64" placeholder="e.g. gpt-4o-mini" />}
        </Field>
        <datalist id="usage-models">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <Field label="Input / 1M tokens" error={errors.inputPerMillion}>
          {(p) => <Input {...p} name="inputPerMillion" inputMode="decimal" className="w-36" />}
        </Field>
        <Field label="Output / 1M tokens" error={errors.outputPerMillion}>
          {(p) => <Input {...p} name="outputPerMillion" inputMode="decimal" className="w-36" />}
        </Field>
        <Button type="submit" className="mt-6" disabled={save.isPending}>
          Save price
        </Button>
      </form>
      {(save.error ?? remove.error) && (
        <ErrorAlert className="mx-5 mb-4">{(save.error ?? remove.error)!.message}</ErrorAlert>
      )}
    </Card>
  );
};
