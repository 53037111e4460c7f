"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { ModelRole } from "@/server/model-providers/project-models.schema";

/**
 * The project's models as the server resolves them (dashboard.projectModels.get): what each role resolves to, and
 * which models are served. Shared by the Models settings page, the node forms and the canvas, so all say the same.
 */
export const useProjectModels = (projectId: string | undefined) => {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.dashboard.projectModels.get.queryOptions({ projectId: projectId ?? "" }),
    enabled: Boolean(projectId),
  });
};

type ProjectModelsData = NonNullable<ReturnType<typeof useProjectModels>["data"]>;

/** "llama3.1:8b (Ollama box)", or the local method's name alone. */
export const modelLabel = (model: string, providerName: string | null) =>
  providerName ? `${model} (${providerName})` : model;

/**
 * The model that will answer a node: its own when something serves it, else the project's default for the role
 * (which may be the local method). Mirrors server/model-providers/resolve.ts.
 */
export const answeringModel = (data: ProjectModelsData, role: ModelRole, nodeModel: unknown) => {
  const own = typeof nodeModel === "string" ? data.served[role].find((m) => m.model === nodeModel) : undefined;
  if (own) return { model: own.model, label: modelLabel(own.model, own.providerName), isDefault: false };
  const resolved = data.resolved.find((r) => r.role === role)!;
  return { model: resolved.model, label: modelLabel(resolved.model, resolved.providerName), isDefault: true };
};
