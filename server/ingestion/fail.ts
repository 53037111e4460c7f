import { db } from "../db";
import { errorMessage, printable } from "../errors";
import { emitBuildEnded } from "../webhooks/events";

/**
 * Marks the build failed with a message a person can act on, and the source with it. Whatever the error holds, it
 * is stored (printable): a build that cannot be marked failed would never end.
 */
export const failBuild = async (buildId: string, error: unknown) => {
  const message = printable(errorMessage(error)) || "Processing failed";
  const build = await db.build.findUnique({ where: { id: buildId }, select: { sourceId: true } });
  if (!build) return null;
  await db.$transaction([
    db.build.update({
      where: { id: buildId },
      data: { status: "ProcessingFailed", error: message, finishedAt: new Date() },
    }),
    db.source.update({ where: { id: build.sourceId }, data: { status: "Failed" } }),
    // Chunks the failed build wrote were never searchable; they go with their chunk set.
    db.chunkSet.deleteMany({ where: { buildId, status: "building" } }),
  ]);
  await emitBuildEnded(buildId);
  return { error: message };
};
