import { inngest } from "../client";
import { flowDeployRequested } from "../events";
import { activateRevision, buildChunkingNode, chunkingNodesOf, failRevision } from "@/server/flows/deploy";

/**
 * Deploys a flow revision (server/flows/deploy.ts): builds each chunking node's chunk sets, then switches the flow's
 * traffic to the revision. Every step is idempotent and memoized, so after a crash the run resumes at the step that
 * was running. A failure marks the revision failed and the flow `Failed`; the previous revision keeps serving.
 * Step ids are stable: "chunking-<node id>" per chunking node.
 */
export const deployFlow = inngest.createFunction(
  { id: "deploy-flow", name: "Deploy flow", retries: 2, triggers: [flowDeployRequested] },
  async ({ event, step }) => {
    const { revisionId } = event.data;
    try {
      const nodes = await step.run("plan", () => chunkingNodesOf(revisionId));
      for (const nodeId of nodes) {
        await step.run(`chunking-${nodeId}`, () => buildChunkingNode(revisionId, nodeId));
      }
      return { revisionId, ...(await step.run("activate", () => activateRevision(revisionId))) };
    } catch (error) {
      await step.run("mark-failed", () => failRevision(revisionId, error));
      return { revisionId, status: "failed" };
    }
  },
);
