"use client";

import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import type { ModelRole } from "@/server/model-providers/project-models.schema";
import { answeringModel, modelLabel, useProjectModels } from "./use-project-models";

/**
 * A node's model: "Default (<what the project's default resolves to>)" first, then the models something serves.
 * A stored model nothing serves shows as Default, because the default is what answers it.
 */
export const ModelPicker = ({
  projectId,
  role,
  label,
  value,
  error,
  onChange,
}: {
  projectId: string;
  role: ModelRole;
  label: string;
  value: unknown;
  error?: string;
  onChange: (model: string | null) => void;
}) => {
  const models = useProjectModels(projectId);
  if (!models.data) {
    return (
      <Field label={label} error={error ?? models.error?.message}>
        {(p) => (
          <Select {...p} disabled>
            <option>Loading models…</option>
          </Select>
        )}
      </Field>
    );
  }
  const answering = answeringModel(models.data, role, value);
  const fallback = models.data.resolved.find((r) => r.role === role)!;
  return (
    <Field label={label} error={error} hint={`Answered by ${answering.label}`}>
      {(p) => (
        <Select
          {...p}
          value={answering.isDefault ? "" : answering.model}
          onChange={(e) => onChange(e.target.value || null)}
        >
          <option value="">Default ({modelLabel(fallback.model, fallback.providerName)})</option>
          {models.data.served[role].map((m) => (
            <option key={m.model} value={m.model}>
              {modelLabel(m.model, m.providerName)}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
};

/** A role the node uses but cannot choose per node (its model is the project's): says which model that is. */
export const ProjectModelNote = ({ projectId, role, label }: { projectId: string; role: ModelRole; label: string }) => {
  const models = useProjectModels(projectId);
  const resolved = models.data?.resolved.find((r) => r.role === role);
  return (
    <p className="text-xs text-muted-foreground" data-testid={`${role}-model`}>
      {label}: {resolved ? modelLabel(resolved.model, resolved.providerName) : "…"} (the project&apos;s, set on its
      Models page)
    </p>
  );
};
