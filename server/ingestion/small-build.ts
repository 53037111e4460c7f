import { enrichBuild } from "../enrichment/step";
import { chunkBuild, embedBuild, finalizeBuild, indexBuild } from "./indexing";
import { partitionBuild } from "./pipeline";

/**
 * A small upload's whole build in one step. Each job step is an HTTP round trip to the app's own serve route (the
 * function replayed, the result stored): for a one-page text those round trips cost more than parsing, enriching and
 * embedding it. Every part below is idempotent on its own (it clears what an earlier attempt wrote), so a retried or
 * resumed step simply runs them all again, which for a small document costs little. Larger documents keep one step
 * per part, so a crash during embedding does not parse a large file again.
 */

export const processSmallBuild = async (buildId: string, indexing: string) => {
  if (!(await partitionBuild(buildId))) return null;
  // Never fails the build (problems become warnings).
  await enrichBuild(buildId);
  if (indexing !== "none") {
    await chunkBuild(buildId);
    await embedBuild(buildId);
  }
  await indexBuild(buildId);
  return finalizeBuild(buildId);
};
