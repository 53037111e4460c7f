"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { useZodForm } from "@/components/ui/use-zod-form";
import {
  CreateProviderInput,
  DEFAULT_BASE_URLS,
  kindName,
  kindScope,
  PROVIDER_KINDS,
  UpdateProviderInput,
  type ProviderKind,
} from "@/server/model-providers/model-providers.schema";
import type { ProviderRow } from "./use-model-providers";

/** Kind and address together: choosing a kind fills its usual address unless the admin typed another. */
const useKindAndAddress = (initial?: ProviderRow) => {
  const [kind, setKind] = useState<ProviderKind>(initial?.kind ?? "openai_compatible");
  const [baseUrl, setBaseUrl] = useState(initial?.baseUrl ?? DEFAULT_BASE_URLS.openai_compatible);
  const changeKind = (next: ProviderKind) => {
    if (baseUrl === DEFAULT_BASE_URLS[kind]) setBaseUrl(DEFAULT_BASE_URLS[next]);
    setKind(next);
  };
  return { kind, changeKind, baseUrl, setBaseUrl };
};

/** Adds a provider, or edits `provider`. The key field is write-only: a saved key shows only as its prefix. */
export const ProviderForm = ({
  teamId,
  provider,
  onDone,
}: {
  teamId: string;
  provider?: ProviderRow;
  onDone: () => void;
}) => {
  const trpc = useTRPC();
  const { kind, changeKind, baseUrl, setBaseUrl } = useKindAndAddress(provider);
  const { errors, validate } = useZodForm(provider ? UpdateProviderInput : CreateProviderInput);
  const create = useMutation(trpc.dashboard.modelProviders.create.mutationOptions({ onSuccess: onDone }));
  const update = useMutation(trpc.dashboard.modelProviders.update.mutationOptions({ onSuccess: onDone }));
  const saving = provider ? update : create;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const values = validate({
      kind,
      baseUrl,
      name: form.get("name"),
      apiKey: form.get("apiKey") || undefined,
      ...(provider ? { clearKey: form.get("clearKey") === "on" } : {}),
    });
    if (!values) return;
    if (provider) update.mutate({ teamId, providerId: provider.id, ...values });
    else create.mutate({ teamId, ...(values as CreateProviderInput) }, { onSuccess: () => formElement.reset() });
  };

  return (
    <form aria-label={provider ? "Edit provider" : "Add provider"} noValidate onSubmit={onSubmit} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {/* The options say the kind's short name (a phone cuts a long one inside the closed select); the hint says
            what it covers. */}
        <Field label="Kind" error={errors.kind} hint={kindScope(kind)}>
          {(p) => (
            <Select {...p} value={kind} onChange={(e) => changeKind(e.target.value as ProviderKind)}>
              {PROVIDER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {kindName(k)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Name" error={errors.name}>
          {(p) => <Input {...p} name="name" defaultValue={provider?.name} placeholder="e.g. Ollama on the GPU box" />}
        </Field>
      </div>
      <Field
        label="Base URL"
        error={errors.baseUrl}
        hint="Private and loopback addresses only when the install allows them"
      >
        {(p) => <Input {...p} name="baseUrl" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />}
      </Field>
      <Field
        label="API key"
        error={errors.apiKey}
        hint={
          provider?.keyPrefix
            ? `Saved: ${provider.keyPrefix} (leave empty to keep it)`
            : "Leave empty if the server needs none"
        }
      >
        {(p) => <Input {...p} name="apiKey" type="password" autoComplete="off" />}
      </Field>
      {provider?.keyPrefix && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="clearKey" className="size-4 accent-[var(--primary)]" /> Forget the saved key
        </label>
      )}
      {saving.error && <ErrorAlert>{saving.error.message}</ErrorAlert>}
      <div className="flex gap-2">
        <Button type="submit" disabled={saving.isPending}>
          {provider ? "Save provider" : "Add provider"}
        </Button>
        {provider && (
          <Button variant="secondary" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
};
