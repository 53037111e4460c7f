import { enrichBuild } from "../enrichment/step";
import { chunkBuild, embedBuild, finalizeBuild, indexBuild } from "./indexing";

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
  await indexBuild(buildId);
  return finalizeBuild(buildId);
};
