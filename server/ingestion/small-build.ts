import { activateBuildChunkSet } from "../chunk-sets/service";
import { db } from "../db";
import { enrichBuild } from "../enrichment/step";
import { refreshChunkStatistics } from "../retrieval/keyword-query";
import { chunkBuild, embedBuild, finalizeWrites } from "./indexing";

/**
 * The rest of a small upload's build (after partition) in the same job step. Each job step is an HTTP round trip to
 * the app's own serve route (the function replayed, the result stored): for a one-page text those round trips cost
 * more than parsing, enriching and embedding it. Every part is idempotent on its own (it clears what an earlier
 * attempt wrote), so a retried or resumed step simply runs them all again, which for a small document costs little.
 * Larger documents keep one step per part, so a crash during embedding does not parse a large file again.
 */
export const finishSmallBuild = async (buildId: string, indexing: string) => {
  // Never fails the build (problems become warnings).
  await enrichBuild(buildId);
  if (indexing !== "none") {
    await chunkBuild(buildId);
    await embedBuild(buildId);
  }
  return indexAndFinalize(buildId);
};

/**
 * indexBuild and finalizeBuild in one transaction: the build's chunk set becomes the source's searchable one as the
 * build and source become Completed: five statements fewer, at about 2 ms of CPU each (embedded Postgres and
 * client). The "index" state between the two is never seen when they run in one job step.
 */
const indexAndFinalize = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  const indexed = build.indexing !== "none";
  const writes = finalizeWrites(build);
  await db.$transaction([
    db.source.update({
      where: { id: build.sourceId },
      data: { ...writes.source, indexedBuildId: indexed ? buildId : null },
    }),
    ...activateBuildChunkSet({ sourceId: build.sourceId, buildId, indexed }),
    writes.dropOlderElements,
    db.build.update({ where: { id: buildId }, data: writes.build }),
  ]);
  await refreshChunkStatistics();
  return { status: writes.status };
};
