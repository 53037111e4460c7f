import { env } from "../env";
import { AppError } from "../errors";
import { v2ToInternal, type V2Method } from "../parsing/methods.schema";
import type { Enrichment, Indexing } from "./sources.schema";
import type { BuildOptions } from "./service";

/** Indexing options this deployment offers (GET /config). */
export const indexingOptions = (): Indexing[] =>
  env.QUARRY_INDEXING_OPTIONS.split(",")
    .map((s) => s.trim())
    .includes("none")
    ? ["full", "none"]
    : ["full"];

/** Defaults of contract §3/§5.2 (method fast, full enrichment and indexing) and the deployment's indexing rule. */
export const resolveBuildOptions = ({
  method,
  enrichment,
  indexing,
}: {
  method?: V2Method;
  enrichment?: Enrichment;
  indexing?: Indexing;
}): BuildOptions => {
  if (indexing === "none" && !indexingOptions().includes("none")) {
    throw new AppError("BAD_REQUEST", "Indexing 'none' is not enabled. Valid values: full");
  }
  return { method: v2ToInternal[method ?? "fast"], enrichment: enrichment ?? "full", indexing: indexing ?? "full" };
};
