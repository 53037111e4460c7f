import { env } from "../env";
import { AppError } from "../errors";
import { getVisionModel } from "../providers/vision";
import { v2ToInternal, type InternalMethod, type V2Method } from "../parsing/methods.schema";
import type { Enrichment, Indexing } from "../sources/sources.schema";

export type BuildOptions = { method: string; enrichment: Enrichment; indexing: Indexing };

/** Indexing options this deployment offers (GET /config). */
export const indexingOptions = (): Indexing[] =>
  env.QUARRY_INDEXING_OPTIONS.split(",")
    .map((s) => s.trim())
    .includes("none")
    ? ["full", "none"]
    : ["full"];

/** Methods that need a model this deployment may not have. Checked when a build is requested, never faked later. */
export const assertMethodAvailable = (method: InternalMethod) => {
  if (method === "graphorlm" && !getVisionModel()) {
    throw new AppError(
      "BAD_REQUEST",
      "Method 'agentic' needs a vision model: set VISION_MODEL (and VISION_BASE_URL / VISION_API_KEY) to an OpenAI-compatible vision model",
    );
  }
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
  const internal = v2ToInternal[method ?? defaultMethod];
  assertMethodAvailable(internal);
  return { method: internal, enrichment: enrichment ?? "full", indexing: indexing ?? "full" };
};
