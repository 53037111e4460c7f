import { db } from "../../db";
import { deleteOlderElements } from "../bounded-deletes";
import { stepReached } from "../step-progress";
import { emitBuildEnded } from "../../webhooks/events";

type FinishingBuild = { method: string; failedBatchesCount: number | null };

/** The statuses finalizing writes on the build and its source (a small build writes them in its one transaction). */
export const finalizeWrites = (build: FinishingBuild) => {
  const status = (build.failedBatchesCount ?? 0) > 0 ? "CompletedWithErrors" : "Completed";
  return {
    status,
    build: { status, ...stepReached("finalize"), finishedAt: new Date(), error: null },
    source: { status: "Completed", method: build.method },
  } as const;
};

/**
 * The build is done: statuses are written, then older builds' elements go, in slices (a reprocessed 100 MB source's
 * old elements in one DELETE held the database for everyone). The source shows its newest successful build, so the
 * old rows are out of sight from the first write; a crash in between leaves rows the next finalize deletes.
 */
export const finalizeBuild = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  const writes = finalizeWrites(build);
  await db.$transaction([
    db.build.update({ where: { id: buildId }, data: writes.build }),
    db.source.update({ where: { id: build.sourceId }, data: writes.source }),
  ]);
  await emitBuildEnded(buildId);
  await deleteOlderElements({ projectId: build.projectId, sourceId: build.sourceId, buildId });
  return { status: writes.status };
};
