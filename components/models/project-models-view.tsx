"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { Loading } from "@/components/ui/states";
import {
  MODEL_ROLES,
  providersPagePath,
  ROLE_LABELS,
  type ModelRole,
  type ProjectModels,
} from "@/server/model-providers/project-models.schema";
import { modelLabel, useProjectModels } from "./use-project-models";

type Data = NonNullable<ReturnType<typeof useProjectModels>["data"]>;

const RoleField = ({
  data,
  role,
  value,
  onChange,
}: {
  data: Data;
  role: ModelRole;
  value: string | null;
  onChange: (model: string | null) => void;
}) => {
  const fallback = data.fallback.find((r) => r.role === role)!;
  const resolved = data.resolved.find((r) => r.role === role)!;
  return (
    // The closed select says only "Default" (a phone cuts a model name inside it); the hint names both models.
    <Field
      label={ROLE_LABELS[role]}
      hint={`Answered now by ${modelLabel(resolved.model, resolved.providerName)}. Default: ${modelLabel(fallback.model, fallback.providerName)}.`}
    >
      {(p) => (
        <Select {...p} value={value ?? ""} onChange={(e) => onChange(e.target.value || null)}>
          <option value="">Default</option>
          {/* A saved default whose provider no longer lists it stays visible, so the page never hides a setting. */}
          {value && !data.served[role].some((m) => m.model === value) && (
            <option value={value}>{value} (not served now)</option>
          )}
          {data.served[role].map((m) => (
            <option key={m.model} value={m.model}>
              {modelLabel(m.model, m.providerName)}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
};

const Form = ({ projectId, data, canEdit }: { projectId: string; data: Data; canEdit: boolean }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ProjectModels>(data.defaults);
  const save = useMutation(
    trpc.dashboard.projectModels.set.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.dashboard.projectModels.get.queryKey({ projectId }), next);
        setDraft(next.defaults);
      },
    }),
  );
  const changed = MODEL_ROLES.filter((r) => draft[r] !== data.defaults[r]);
  return (
    <form
      aria-label="Default models"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ projectId, ...Object.fromEntries(changed.map((r) => [r, draft[r]])) });
      }}
    >
      <fieldset disabled={!canEdit || save.isPending} className="grid gap-4 px-5 py-4 sm:grid-cols-2">
        {MODEL_ROLES.map((role) => (
          <RoleField
            key={role}
            data={data}
            role={role}
            value={draft[role]}
            onChange={(model) => setDraft({ ...draft, [role]: model })}
          />
        ))}
      </fieldset>
      <div className="flex items-center gap-3 border-t border-border px-5 py-3">
        {canEdit && (
          <Button type="submit" disabled={!changed.length || save.isPending}>
            {save.isPending ? "Saving…" : "Save"}
          </Button>
        )}
        {changed.includes("embedding") && (
          <span className="text-xs text-muted-foreground">
            A new embedding model re-embeds the project&apos;s chunks; searches run by keyword until it is done.
          </span>
        )}
        {save.isSuccess && !changed.length && <span className="text-xs text-muted-foreground">Saved</span>}
      </div>
      {save.isError && <ErrorAlert className="mx-5 mb-4">{save.error.message}</ErrorAlert>}
    </form>
  );
};

/**
 * The project's default model per role. Unset, a role takes the install's default (the environment's settings) or
 * Quarry's local method; flow nodes without a model of their own use these.
 */
export const ProjectModelsView = ({ projectId }: { projectId: string }) => {
  const project = useProject(projectId);
  const models = useProjectModels(projectId);
  if (project.isPending || models.isPending) return <Loading />;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  if (models.isError) return <ErrorAlert>{models.error.message}</ErrorAlert>;
  const canEdit = project.can("admin");
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Models</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          The models this project uses when a flow node or a request names none. The list holds what the team&apos;s
          providers serve; add one on the{" "}
          <Link href={providersPagePath(models.data.teamId)} className="text-link underline">
            Model providers
          </Link>{" "}
          page.
        </p>
      </div>
      {!canEdit && <Notice>Only the team&apos;s admins change the project&apos;s models.</Notice>}
      <Card label="Default models">
        <CardHeader title="Default models" />
        <Form key={JSON.stringify(models.data.defaults)} projectId={projectId} data={models.data} canEdit={canEdit} />
      </Card>
    </div>
  );
};
