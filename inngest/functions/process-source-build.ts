import { inngest } from "../client";
import { nonRetriable } from "../non-retriable";
import { sourceBuildRequested } from "../events";
import { acquireBuild } from "@/server/connectors/acquire";
import { failBuild, loadBuild, partitionBuild } from "@/server/ingestion/pipeline";
import { enrichBuild } from "@/server/enrichment/step";
import { chunkBuild, embedBuild, finalizeBuild, indexBuild, reuseParentElements } from "@/server/ingestion/indexing";
import { finishSmallBuild } from "@/server/ingestion/small-build";

/**
 * Parses, enriches, chunks, embeds and indexes one source build (an index build re-uses its parent's elements). Each
 * step calls one domain function that writes its results and the build's status; a step that fails after its retries
 * marks the build failed. A small upload runs every part in one step ("process-small"): its round trips would cost
 * more than its work.
 * Step ids are stable: renaming one changes its identity for runs in flight.
 */
export const processSourceBuild = inngest.createFunction(
  {
    id: "process-source-build",
    name: "Process source build",
    retries: 3,
    triggers: [sourceBuildRequested],
  },
  async ({ event, step }) => {
    const { buildId } = event.data;
    try {
      const build = await step.run("load", () => loadBuild(buildId));
      if (!build) return { buildId, status: "cancelled" };
      if (build.small) {
        const done = await step.run("process-small", async () => {
          // A document that cannot be parsed fails at once; the later parts are retried like their own steps.
          if (!(await nonRetriable(() => partitionBuild(buildId)))) return null;
          return finishSmallBuild(buildId, build.indexing);
        });
        return done ? { buildId, ...done } : { buildId, status: "cancelled" };
      }
      if (build.kind === "index") {
        // POST /index: the parent build's elements (parsed and enriched already) are re-used.
        await step.run("reuse-elements", () => nonRetriable(() => reuseParentElements(buildId)));
      } else {
        // Web pages, file URLs, repositories and videos are fetched into the file store first (uploads skip it).
        await step.run("acquire", () => nonRetriable(() => acquireBuild(buildId)));
        await step.run("partition", () => nonRetriable(() => partitionBuild(buildId)));
        // Skips itself with enrichment=none; never fails the build.
        await step.run("enrich", () => enrichBuild(buildId));
      }
      if (build.indexing !== "none") {
        await step.run("chunk", () => chunkBuild(buildId));
        await step.run("embed", () => embedBuild(buildId));
      }
      await step.run("index", () => indexBuild(buildId));
      return { buildId, ...(await step.run("finalize", () => finalizeBuild(buildId))) };
    } catch (error) {
      const failed = await step.run("mark-failed", () => failBuild(buildId, error));
      return { buildId, status: "failed", ...failed };
    }
  },
);
