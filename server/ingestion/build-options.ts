import { env } from "../env";
import { AppError } from "../errors";
import { projectModelsPagePath, providersPagePath } from "../model-providers/project-models.schema";
import { projectModelsOf, resolveVisionModel } from "../model-providers/resolve";
import { v2ToInternal, type V2Method } from "../parsing/methods.schema";
import type { Enrichment, Indexing } from "../sources/sources.schema";

export type BuildOptions = { method: string; enrichment: Enrichment; indexing: Indexing };

/** Indexing options this deployment offers (GET /config). */
export const indexingOptions = (): Indexing[] =>
  env.QUARRY_INDEXING_OPTIONS.split(",")
    .map((s) => s.trim())
    .includes("none")
    ? ["full", "none"]
    : ["full"];

/**
 * Methods that need a model this project may not have (its default vision model, else the environment's). Checked
 * when a build is requested, before anything is stored, never faked later.
 */
export const assertMethodAvailable = async (projectId: string, method: string) => {
  if (method !== "graphorlm" || (await resolveVisionModel(projectId))) return;
  const { teamId } = await projectModelsOf(projectId);
  throw new AppError(
    "BAD_REQUEST",
    `Method 'agentic' needs a vision model: choose one at ${projectModelsPagePath(projectId)} (providers are added at ` +
      `${providersPagePath(teamId)}), or set VISION_MODEL (and VISION_BASE_URL / VISION_API_KEY) to an ` +
      "OpenAI-compatible vision model",
  );
};

/**
 * Defaults of contract §3/§5.2 (method `auto` for an ingest, `fast` for a reprocess; full enrichment and indexing)
 * and the deployment's indexing rule.
 */
export const resolveBuildOptions = ({
  method,
  enrichment,
  indexing,
  defaultMethod = "fast",
}: {
  method?: V2Method;
  enrichment?: Enrichment;
  indexing?: Indexing;
  defaultMethod?: V2Method;
}): BuildOptions => {
  if (indexing === "none" && !indexingOptions().includes("none")) {
    throw new AppError("BAD_REQUEST", "Indexing 'none' is not enabled. Valid values: full");
  }
  return {
    method: v2ToInternal[method ?? defaultMethod],
    enrichment: enrichment ?? "full",
    indexing: indexing ?? "full",
  };
};
