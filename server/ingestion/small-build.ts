import { activateBuildChunkSet } from "../chunk-sets/service";
import { db } from "../db";
import { enrichBuild } from "../enrichment/step";
import { getEmbedder } from "../providers/embedding";
import { ensureEmbeddingIndex } from "../retrieval/embedding-index";
import { refreshChunkStatistics } from "../retrieval/keyword-query";
import { embedChunks, enterBuildStep, finalizeWrites, writeBuildChunks } from "./indexing";
import { progressOf } from "./progress";

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
  if (indexing !== "none") await chunkAndEmbed(buildId);
  return indexAndFinalize(buildId);
};

/**
 * chunkBuild and embedBuild in one: the chunks are embedded as they are written, without reading them back, and the
 * chunk set and build are updated once (seven statements fewer). A retry writes the chunks again, vectors included.
 */
const chunkAndEmbed = async (buildId: string) => {
  const build = await enterBuildStep(buildId, "chunk");
  if (!build) return null;
  const { chunkSetId, chunks } = await writeBuildChunks(build);
  const embedder = getEmbedder();
  const index = await ensureEmbeddingIndex(embedder);
  const failedBatches = await embedChunks({ buildId, embedder, indexId: index.id, chunks });
  await db.$transaction([
    db.chunkSet.update({ where: { id: chunkSetId }, data: { chunkCount: chunks.length, embeddingIndexId: index.id } }),
    db.build.update({
      where: { id: buildId },
      data: {
        step: "embed",
        failedBatchesCount: failedBatches,
        embeddingIndexId: index.id,
        progress: progressOf("embed"),
      },
    }),
  ]);
  return { chunks: chunks.length, failedBatches };
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
