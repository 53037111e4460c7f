import { db } from "../db";

/**
 * The project's re-embedding in progress (or null), for GET /config and search messages. Written by
 * server/chunk-sets/reembed.ts and only read here, so chunk sets depend on retrieval and never the other way round.
 */
export const reembeddingProgress = (projectId: string) =>
  db.reembeddingJob.findFirst({
    where: { projectId, status: "running" },
    orderBy: { createdAt: "desc" },
    select: { doneChunks: true, totalChunks: true, status: true },
  });
