import { eventType } from "inngest";
import { z } from "zod";

/**
 * Every event that starts a job, with its payload schema. The `eventType` values are the functions' triggers
 * (`triggers: [sourceBuildRequested]`, which types `event.data` in the handler and validates it before the first step)
 * and what `sendJobEvent` (send.ts) takes, so a sender cannot pair an event name with another event's payload.
 * They live here, beside the sender, because domain code sends them and must not import the functions' folder.
 */

export const SourceBuildRequestedData = z.object({
  buildId: z.uuid(),
  projectId: z.uuid(),
  sourceId: z.uuid(),
  /** An upload small enough to build in the run's first call, without steps (process-source-build.ts). */
  small: z.boolean().optional(),
});
export type SourceBuildRequestedData = z.infer<typeof SourceBuildRequestedData>;

export const sourceBuildRequested = eventType("source/build.requested", { schema: SourceBuildRequestedData });

export const ChunkSetsReembedRequestedData = z.object({ jobId: z.uuid(), projectId: z.uuid() });
export type ChunkSetsReembedRequestedData = z.infer<typeof ChunkSetsReembedRequestedData>;

export const chunkSetsReembedRequested = eventType("chunk-sets/reembed.requested", {
  schema: ChunkSetsReembedRequestedData,
});

export const FlowDeployRequestedData = z.object({ revisionId: z.uuid(), projectId: z.uuid(), flowId: z.uuid() });
export type FlowDeployRequestedData = z.infer<typeof FlowDeployRequestedData>;

export const flowDeployRequested = eventType("flow/deploy.requested", { schema: FlowDeployRequestedData });

export const EvaluationRunRequestedData = z.object({ runId: z.uuid(), projectId: z.uuid() });
export type EvaluationRunRequestedData = z.infer<typeof EvaluationRunRequestedData>;

export const evaluationRunRequested = eventType("evaluation/run.requested", { schema: EvaluationRunRequestedData });

export const WebhookDeliveryRequestedData = z.object({ deliveryId: z.uuid(), projectId: z.uuid() });
export type WebhookDeliveryRequestedData = z.infer<typeof WebhookDeliveryRequestedData>;

export const webhookDeliveryRequested = eventType("webhook/delivery.requested", {
  schema: WebhookDeliveryRequestedData,
});

/** `attempt`: the deletion attempt the run belongs to (absent in events sent before it existed: the first). */
export const ProjectDeleteRequestedData = z.object({
  projectId: z.uuid(),
  attempt: z.number().int().min(0).optional(),
});
export type ProjectDeleteRequestedData = z.infer<typeof ProjectDeleteRequestedData>;

export const projectDeleteRequested = eventType("project/delete.requested", { schema: ProjectDeleteRequestedData });

/** The events `sendJobEvent` accepts. */
export type JobEvent =
  | typeof sourceBuildRequested
  | typeof chunkSetsReembedRequested
  | typeof flowDeployRequested
  | typeof evaluationRunRequested
  | typeof webhookDeliveryRequested
  | typeof projectDeleteRequested;
