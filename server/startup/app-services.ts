import { startReembedding } from "../chunk-sets/reembed";
import { bootstrap, bootstrapOwner } from "../bootstrap";
import { disconnectDb } from "../db";
import { env, jobRunner } from "../env";
import { markJobRunnerReady } from "../health";
import { setInProcessEvents } from "../jobs/in-process-events";
import { startLocalExecutor, type LocalExecutor } from "../jobs/local-executor";
import { logger } from "../logger";
import { missingToolsLine, unavailableFeatures } from "../parsing/tool-features";
import { setupKeywordEngine } from "../retrieval/keyword-engine";
import { closeSearchPool } from "../retrieval/search-pool";
import { resumePendingDeliveries } from "../webhooks/emit";
import { resumeProjectDeletions } from "../projects/delete";
import { startOrphanSweep } from "../sources/orphans";
import { configureLocalJobs, LOCAL_EVENT_PATH, resumeUnfinishedBuilds } from "./job-runner";
import {
  launchContext,
  setLocalEvents,
  setServicesStarter,
  type AppServices,
  type LaunchContext,
} from "./launcher-bridge";

/**
 * The app's services under `npm start`, in Next's module graph (launcher-bridge.ts says why). Next's instrumentation
 * hook calls prepareAppServices while it prepares, before any request is served; the launcher then starts the
 * services once the app answers, because the job executor drives runs through the app's own /api/inngest.
 */
/** The job functions the local executor runs: inngest/index.ts, handed in by instrumentation.ts (the app layer). */
type JobFunctions = Parameters<typeof startLocalExecutor>[0]["functions"];

export const prepareAppServices = async (functions: JobFunctions) => {
  const launch = launchContext();
  if (!launch) return; // a Next not started by the launcher (`next start`): no jobs, no bootstrap
  try {
    if (jobRunner() === "local") configureLocalJobs({ appOrigin: launch.origin });
    logger.info(await setupKeywordEngine(), "keyword search engine");
    setServicesStarter(() => startAppServices(launch, functions));
  } catch (error) {
    // The launcher's start then fails with this error (thrown here, Next would only answer requests with 500).
    setServicesStarter(() => Promise.reject(error));
  }
};

const startAppServices = async (launch: LaunchContext, functions: JobFunctions): Promise<AppServices> => {
  // Once, at start (before health says ok): what a missing system tool disables, instead of the first build that
  // needs it failing.
  const missing = await unavailableFeatures();
  const missingLine = missingToolsLine(missing);
  if (missingLine) logger.warn({ unavailable: missing.map((m) => m.feature) }, missingLine);

  const runner = jobRunner();
  let executor: LocalExecutor | null = null;
  if (runner === "local") {
    executor = await startLocalExecutor({
      serveUrl: `${launch.origin}/api/inngest`,
      functions,
      concurrency: env.QUARRY_JOB_CONCURRENCY,
      leaseMs: env.QUARRY_JOB_LEASE_MS,
      signingKey: env.INNGEST_SIGNING_KEY,
    });
    setInProcessEvents(executor.ingestEvent);
    setLocalEvents({ path: LOCAL_EVENT_PATH, handle: executor.handleEventRequest });
  }
  // Before health says ok: scripts that wait for it use the init token at once.
  const boot = await bootstrap();
  const owner = await bootstrapOwner();
  markJobRunnerReady(true);
  await resumeUnfinishedBuilds();
  await resumeProjectDeletions().catch((err: unknown) => logger.error({ err }, "could not resume project deletions"));
  await resumePendingDeliveries();
  await startReembedding().catch((err: unknown) => logger.error({ err }, "could not start re-embedding"));
  const stopOrphanSweep = startOrphanSweep();

  const { url } = launch;
  logger.info({ url, database: launch.embeddedDatabase ? "embedded" : "external", jobs: runner }, "Quarry is ready");
  if (boot.kind === "first-start") {
    process.stdout.write(
      `\nQuarry is running at ${url}\nProject "${boot.projectName}" was created. Its API token (shown once, keep it):\n\n` +
        `  ${boot.token}\n\nTry: curl -H "Authorization: Bearer ${boot.token}" ${url}/api/public/v1/sources\n\n`,
    );
  }
  if (owner.kind === "needs-setup") {
    process.stdout.write(`\nNo accounts yet: open ${url} to create the owner account.\n\n`);
  } else if (owner.kind === "created") {
    process.stdout.write(`\nOwner account ${owner.email} created (QUARRY_ADMIN_EMAIL).\n\n`);
  }

  return {
    stopJobs: async () => {
      markJobRunnerReady(false);
      stopOrphanSweep();
      setInProcessEvents(undefined);
      await executor?.stop();
    },
    // Every pool, before the launcher stops the embedded database: a connection it cuts is a warning otherwise.
    disconnect: async () => {
      await Promise.all([disconnectDb(), closeSearchPool()]);
    },
  };
};
