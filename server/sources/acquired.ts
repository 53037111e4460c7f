import { db } from "../db";
import { Prisma } from "../generated/prisma/client";

/**
 * The newest build of a source that fetched something (a reprocess re-parses the stored snapshot and has no report of
 * its own), with its acquisition report; null when none did.
 */
export const latestAcquiringBuild = ({ projectId, sourceId }: { projectId: string; sourceId: string }) =>
  db.build.findFirst({
    where: { projectId, sourceId, NOT: { acquired: { equals: Prisma.AnyNull } } },
    orderBy: { createdAt: "desc" },
    select: { id: true, status: true, acquired: true, createdAt: true },
  });
