import { randomUUID } from "node:crypto";
import { db } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { requestBuild } from "./schedule";
import { ACTIVE_BUILD_STATUSES, SUCCESSFUL_BUILD_STATUSES } from "./builds";

/**
 * POST /index (contract §5.7): indexes a build made with indexing=none. A new build of kind "index" copies the
 * parent's elements (no parsing), then chunks, embeds and indexes them like any build; its id is what the client
 * polls. The source's newest build is what `file_id` names.
 */

const notFound = () => new AppError("NOT_FOUND", "Build not found");

const findTarget = async ({ projectId, buildId, fileId }: { projectId: string; buildId?: string; fileId?: string }) => {
  if (buildId) {
    return isUuid(buildId) ? db.build.findFirst({ where: { id: buildId, projectId } }) : null;
  }
  if (!fileId || !isUuid(fileId)) return null;
  // A failed index attempt does not hide the build it tried to index: calling again retries.
  return db.build.findFirst({
    where: { projectId, sourceId: fileId, NOT: { kind: "index", status: "ProcessingFailed" } },
    orderBy: { createdAt: "desc" },
  });
};

export const requestIndexBuild = async ({
  projectId,
  buildId,
  fileId,
}: {
  projectId: string;
  buildId?: string;
  fileId?: string;
}) => {
  const target = await findTarget({ projectId, buildId, fileId });
  if (!target) throw notFound();
  const newBuildId = randomUUID();
  // The source row lock serialises this with reprocess and other index calls on the same source.
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM sources WHERE id = ${target.sourceId}::uuid FOR UPDATE`;
    const build = await tx.build.findUnique({ where: { id: target.id } });
    if (!build) throw notFound();
    if (!SUCCESSFUL_BUILD_STATUSES.includes(build.status)) throw new AppError("CONFLICT", "Build is not completed");
    if (build.indexing !== "none") throw new AppError("CONFLICT", "Build is already indexed");
    const newer = await tx.build.findMany({
      where: { sourceId: build.sourceId, createdAt: { gt: build.createdAt } },
      select: { kind: true, parentBuildId: true, status: true },
    });
    // Indexed already by an earlier POST /index (finished or under way).
    if (newer.some((b) => b.kind === "index" && b.parentBuildId === build.id && b.status !== "ProcessingFailed")) {
      throw new AppError("CONFLICT", "Build is already indexed");
    }
    if (newer.some((b) => ACTIVE_BUILD_STATUSES.includes(b.status))) {
      throw new AppError("CONFLICT", "A build is already running for this source");
    }
    // A newer successful build replaced this one's elements; indexing it would bring back an outdated parse.
    if (newer.some((b) => SUCCESSFUL_BUILD_STATUSES.includes(b.status))) {
      throw new AppError("CONFLICT", "Build was replaced by a newer build of this source; index that one (by file_id)");
    }
    await tx.build.create({
      data: {
        id: newBuildId,
        projectId,
        sourceId: build.sourceId,
        kind: "index",
        parentBuildId: build.id,
        method: build.method,
        enrichment: build.enrichment,
        indexing: "full",
      },
    });
    await tx.source.update({ where: { id: build.sourceId }, data: { lastBuildId: newBuildId, status: "Processing" } });
  });
  await requestBuild({ buildId: newBuildId, projectId, sourceId: target.sourceId });
  return { buildId: newBuildId };
};
