import { inngest } from "@/server/jobs/client";
import { chunkSetsReembedRequested } from "@/server/jobs/events";
import { finishReembedding, reembedStep } from "@/server/chunk-sets/reembed";

/**
 * Re-embeds a project's chunk sets with the current embedding model (server/chunk-sets/reembed.ts), a bounded number
 * of chunks per step, so progress is committed as it goes and a crash costs at most the step that was running.
 * Step ids are stable: "batch-<n>" is the n-th step of this run.
 */
export const reembedChunkSets = inngest.createFunction(
  {
    id: "reembed-chunk-sets",
    name: "Re-embed chunk sets",
    retries: 3,
    triggers: [chunkSetsReembedRequested],
  },
  async ({ event, step }) => {
    const { jobId } = event.data;
    let embedded = 0;
    try {
      for (let n = 0; ; n++) {
        const result = await step.run(`batch-${n}`, () => reembedStep(jobId));
        embedded += result.embedded;
        if (result.done) break;
      }
    } catch (error) {
      await step.run("mark-failed", () => finishReembedding(jobId, error));
      return { jobId, status: "failed", embedded };
    }
    return { jobId, embedded, ...(await step.run("finish", () => finishReembedding(jobId))) };
  },
);
