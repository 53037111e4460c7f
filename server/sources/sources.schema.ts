/** Facts about sources that the dashboard and the public API share (isomorphic: no server imports). */

// The allowed list is derived from the parsers' registry of file types.
export { ALLOWED_EXTENSIONS, isAllowedExtension, type AllowedExtension } from "../parsing/formats.schema";

/** Lowercase extension without the dot, or "" when the name has none. */
export const extensionOf = (fileName: string): string => {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : "";
};

export const SOURCE_STATUS_MESSAGE = {
  New: "Source uploaded, awaiting processing",
  Processing: "Source is being processed",
  Completed: "Source processed successfully",
  Failed: "Source processing failed",
} as const;

export const BUILD_STATUS_MESSAGE = {
  Pending: "Build queued",
  Processing: "Build in progress",
  Completed: "Build completed successfully",
  "Completed with errors": "Build completed with errors",
  "Processing failed": "Build failed",
  not_found: "No build found for this build_id",
} as const;

export type PublicBuildStatus = keyof typeof BUILD_STATUS_MESSAGE;

export const ENRICHMENT_OPTIONS = ["full", "none"] as const;
export const INDEXING_OPTIONS = ["full", "none"] as const;
export type Enrichment = (typeof ENRICHMENT_OPTIONS)[number];
export type Indexing = (typeof INDEXING_OPTIONS)[number];

export const PIPELINE_STEPS = [
  "load",
  "acquire",
  "partition",
  "enrich",
  "chunk",
  "embed",
  "index",
  "finalize",
] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];
