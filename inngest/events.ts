import { eventType } from "inngest";
import { z } from "zod";

/**
 * Every event Quarry sends, with its payload schema. The `eventType` values are used both as function triggers
 * (`triggers: [sourceBuildRequested]`, which types `event.data` in the handler and validates it before the first step)
 * and to build events to send (`inngest.send(sourceBuildRequested.create({ ... }))`, validated before sending).
 */

export const SOURCE_BUILD_REQUESTED = "source/build.requested" as const;

export const SourceBuildRequestedData = z.object({
  buildId: z.uuid(),
  projectId: z.uuid(),
  sourceId: z.uuid(),
  /** An upload small enough to build in the run's first call, without steps (process-source-build.ts). */
  small: z.boolean().optional(),
});
export type SourceBuildRequestedData = z.infer<typeof SourceBuildRequestedData>;

export const sourceBuildRequested = eventType(SOURCE_BUILD_REQUESTED, { schema: SourceBuildRequestedData });

export const CHUNK_SETS_REEMBED_REQUESTED = "chunk-sets/reembed.requested" as const;

export const ChunkSetsReembedRequestedData = z.object({ jobId: z.uuid(), projectId: z.uuid() });
export type ChunkSetsReembedRequestedData = z.infer<typeof ChunkSetsReembedRequestedData>;

export const chunkSetsReembedRequested = eventType(CHUNK_SETS_REEMBED_REQUESTED, {
  schema: ChunkSetsReembedRequestedData,
});

export const FLOW_DEPLOY_REQUESTED = "flow/deploy.requested" as const;

export const FlowDeployRequestedData = z.object({ revisionId: z.uuid(), projectId: z.uuid(), flowId: z.uuid() });
export type FlowDeployRequestedData = z.infer<typeof FlowDeployRequestedData>;

export const flowDeployRequested = eventType(FLOW_DEPLOY_REQUESTED, { schema: FlowDeployRequestedData });

export const EVALUATION_RUN_REQUESTED = "evaluation/run.requested" as const;

export const EvaluationRunRequestedData = z.object({ runId: z.uuid(), projectId: z.uuid() });
export type EvaluationRunRequestedData = z.infer<typeof EvaluationRunRequestedData>;

export const evaluationRunRequested = eventType(EVALUATION_RUN_REQUESTED, { schema: EvaluationRunRequestedData });
