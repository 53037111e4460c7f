import { inngest } from "@/server/jobs/client";
import { flowDeployRequested } from "@/server/jobs/events";
import { nonRetriable } from "../non-retriable";
import { activateRevision, buildChunkingNode, deployPlan, failRevision } from "@/server/flows/deploy";
import { advanceRevisionIndex, MAX_INDEX_STEPS, prepareRevisionIndex } from "@/server/flows/deploy-indexes";

/**
 * Deploys a flow revision (server/flows/deploy.ts): builds each chunking node's chunk sets, then each graph-rag and
 * raptor-rag node's index one batch per step (server/flows/deploy-indexes.ts), then switches the flow's traffic to
 * the revision. Every step is idempotent and memoized, so after a crash the run resumes at the step that was
 * running, and an index build resumes from its last checkpoint. A failure marks the revision failed and the flow
 * `Failed`; the previous revision keeps serving. Step ids are stable: "chunking-<node id>" per chunking node,
 * "index-<node id>" and "index-<node id>-<n>" per index node.
 */
export const deployFlow = inngest.createFunction(
  { id: "deploy-flow", name: "Deploy flow", retries: 2, triggers: [flowDeployRequested] },
  async ({ event, step }) => {
    const { revisionId } = event.data;
    try {
      const plan = await step.run("plan", () => deployPlan(revisionId));
      for (const nodeId of plan.chunking) {
        await step.run(`chunking-${nodeId}`, () => nonRetriable(() => buildChunkingNode(revisionId, nodeId)));
      }
      for (const nodeId of plan.indexes) {
        await step.run(`index-${nodeId}`, () => nonRetriable(() => prepareRevisionIndex(revisionId, nodeId)));
        for (let n = 0; ; n++) {
          if (n >= MAX_INDEX_STEPS) throw new Error(`The index of node ${nodeId} did not finish in ${n} steps`);
          const result = await step.run(`index-${nodeId}-${n}`, () =>
            nonRetriable(() => advanceRevisionIndex(revisionId, nodeId)),
          );
          if (result.done) break;
        }
      }
      return { revisionId, ...(await step.run("activate", () => activateRevision(revisionId))) };
    } catch (error) {
      await step.run("mark-failed", () => failRevision(revisionId, error));
      return { revisionId, status: "failed" };
    }
  },
);
