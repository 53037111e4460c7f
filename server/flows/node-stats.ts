import { db } from "../db";
import type { NodeOutcome } from "./run-graph";

/** Adds one run's outcomes to the flow's per-node counters. */
export const recordNodeStats = async (
  { projectId, flowId }: { projectId: string; flowId: string },
  outcomes: NodeOutcome[],
) => {
  const now = new Date();
  await db.$transaction(
    outcomes.map((o) =>
      db.flowNodeStat.upsert({
        where: { flowId_nodeId: { flowId, nodeId: o.id } },
        create: {
          projectId,
          flowId,
          nodeId: o.id,
          runs: 1,
          itemsOut: o.itemsOut,
          responseChars: o.responseChars,
          processingMs: Math.round(o.ms),
          errors: o.ok ? 0 : 1,
          lastRunAt: now,
        },
        update: {
          runs: { increment: 1 },
          itemsOut: { increment: o.itemsOut },
          responseChars: { increment: o.responseChars },
          processingMs: { increment: Math.round(o.ms) },
          errors: { increment: o.ok ? 0 : 1 },
          lastRunAt: now,
        },
      }),
    ),
  );
};
