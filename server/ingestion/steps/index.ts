import { activateBuildChunkSet, retiredChunkSets } from "../../chunk-sets/service";
import { db } from "../../db";
import { refreshChunkStatistics } from "../../retrieval/keyword-query";
import { deleteChunksOfSet } from "../bounded-deletes";
import { stepReached } from "../step-progress";

/** The source's searchable build after this one: this build, or none with indexing "none". */
export const indexedBuildOf = (build: { id: string; indexing: string }) =>
  build.indexing !== "none" ? build.id : null;

/**
 * Makes this build's chunk set the source's searchable one (or, with indexing "none", makes the source unsearchable)
 * and takes every other chunk set of the source out of search, in one transaction; then deletes them in slices.
 */
export const indexBuild = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  const indexedBuildId = indexedBuildOf(build);
  const indexed = indexedBuildId !== null;
  await db.$transaction([
    db.source.update({ where: { id: build.sourceId }, data: { indexedBuildId } }),
    ...activateBuildChunkSet({ sourceId: build.sourceId, buildId, indexed }),
    db.build.update({ where: { id: buildId }, data: stepReached("index") }),
  ]);
  // Out of search already; their chunks go in slices, then the sets.
  for (const set of await retiredChunkSets({ sourceId: build.sourceId, buildId, indexed })) {
    await deleteChunksOfSet(set.id);
    await db.chunkSet.deleteMany({ where: { id: set.id } });
  }
  await refreshChunkStatistics();
  return { indexed };
};
