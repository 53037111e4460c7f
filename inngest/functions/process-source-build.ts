import { NonRetriableError } from "inngest";
import { inngest } from "@/server/jobs/client";
import { sourceBuildRequested } from "@/server/jobs/events";
import { nonRetriable } from "../non-retriable";
import { activeBuild, unlessCancelled, type BuildWithSource } from "@/server/ingestion/build-context";
import { failBuild } from "@/server/ingestion/fail";
import { acquireBuild } from "@/server/ingestion/steps/acquire";
import { chunkBuild } from "@/server/ingestion/steps/chunk";
import { embedBuild } from "@/server/ingestion/steps/embed";
import { enrichBuild } from "@/server/ingestion/steps/enrich";
import { finalizeBuild } from "@/server/ingestion/steps/finalize";
import { indexBuild } from "@/server/ingestion/steps/index";
import { startBuild } from "@/server/ingestion/steps/load";
import { partitionBuild } from "@/server/ingestion/steps/partition";
import { reuseParentElements } from "@/server/ingestion/steps/reuse-elements";
import { finishSmallBuild, parseSmallBuild } from "@/server/ingestion/small-build";
import { withinBudget, withinBuildBudget } from "@/server/ingestion/step-budget";

/** Parse, enrich, chunk, embed, index and finalize of a small upload, written at the end in one transaction. */
const processSmallBuild = async (build: BuildWithSource) => {
  // A document that cannot be parsed fails at once; the later parts are retried like their own steps (and, like
  // them, not once they ran out of time).
  const parsed = await nonRetriable(() => parseSmallBuild(build));
  return nonRetriable(() => finishSmallBuild(build, parsed));
};

/**
 * A small upload's build in the run's first call, with no step at all: a step costs a round trip through the serve
 * route and a stored result, more than the document's own work. Nothing is memoized, so a retry, or a run resumed
 * after a crash, does it all again (its writes are one transaction). Null when the build is not small after all.
 */
const buildInline = async (
  buildId: string,
  { attempt, maxAttempts = 1 }: { attempt: number; maxAttempts?: number },
) => {
  try {
    const started = await startBuild(buildId);
    if (!started) return { buildId, status: "cancelled" };
    if (!started.loaded.small) return null;
    return { buildId, ...(await processSmallBuild(started.build)) };
  } catch (error) {
    // Retried as a step would be (a run that throws is called again), until its last attempt.
    if (!(error instanceof NonRetriableError) && attempt + 1 < maxAttempts) throw error;
    return { buildId, status: "failed", ...(await failBuild(buildId, error)) };
  }
};

/**
 * Parses, enriches, chunks, embeds and indexes one source build (an index build re-uses its parent's elements). Each
 * step calls one domain function that writes its results and the build's status; a step that fails after its retries
 * marks the build failed. A small upload runs every part in its first step ("load"): each step is a round trip
 * through the serve route and a stored result, which would cost more than the document's work.
 * Step ids are stable: renaming one changes its identity for runs in flight.
 */
export const processSourceBuild = inngest.createFunction(
  {
    id: "process-source-build",
    name: "Process source build",
    retries: 3,
    triggers: [sourceBuildRequested],
  },
  async ({ event, step, attempt, maxAttempts }) => {
    const { buildId } = event.data;
    // A build whose project is being deleted fails before its next step (its reason is already on the build).
    const guarded = <T>(work: () => Promise<T>) => nonRetriable(() => unlessCancelled(buildId, work));
    if (event.data.small) {
      const done = await buildInline(buildId, { attempt, maxAttempts });
      if (done) return done;
    }
    try {
      // A small upload's whole build runs inside this first step.
      const build = await step.run("load", async () => {
        const started = await startBuild(buildId);
        if (!started) return null;
        const { loaded } = started;
        return loaded.small ? { ...loaded, done: await processSmallBuild(started.build) } : loaded;
      });
      if (!build) return { buildId, status: "cancelled" };
      if (build.small) {
        // A run whose "load" was stored before small builds ran inside it goes on with a step of their own.
        const done =
          "done" in build
            ? build.done
            : await step.run("process-small", async () => {
                const row = await activeBuild(buildId);
                return row ? processSmallBuild(row) : null;
              });
        return done ? { buildId, ...done } : { buildId, status: "cancelled" };
      }
      if (build.kind === "index") {
        // POST /index: the parent build's elements (parsed and enriched already) are re-used.
        await step.run("reuse-elements", () => guarded(() => reuseParentElements(buildId)));
      } else {
        // Web pages, file URLs, repositories and videos are fetched into the file store first (uploads skip it).
        await step.run("acquire", () => guarded(() => withinBudget("acquire", () => acquireBuild(buildId))));
        // Under the parse worker's own time limit (parsing/worker-pool.ts).
        await step.run("partition", () => guarded(() => partitionBuild(buildId)));
        // Skips itself with enrichment=none; a model's failure is a warning, only running out of time fails the build.
        await step.run("enrich", () => guarded(() => withinBuildBudget(buildId, "enrich", () => enrichBuild(buildId))));
      }
      // Each step under the per-document time budget; past it the build fails at once (a retry would run out too).
      if (build.indexing !== "none") {
        await step.run("chunk", () => guarded(() => withinBuildBudget(buildId, "chunk", () => chunkBuild(buildId))));
        await step.run("embed", () => guarded(() => withinBuildBudget(buildId, "embed", () => embedBuild(buildId))));
      }
      await step.run("index", () => guarded(() => withinBuildBudget(buildId, "index", () => indexBuild(buildId))));
      return { buildId, ...(await step.run("finalize", () => guarded(() => finalizeBuild(buildId)))) };
    } catch (error) {
      const failed = await step.run("mark-failed", () => failBuild(buildId, error));
      return { buildId, status: "failed", ...failed };
    }
  },
);
