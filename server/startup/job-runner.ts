import { listUnfinishedBuilds } from "../ingestion/builds";
import { requestBuild } from "../ingestion/schedule";
import { db } from "../db";
import { env, jobRunner, setRuntimeEnv } from "../env";
import { generateEventKey, generateSigningKey } from "../jobs/keys";
import { hasRunForEventData } from "../jobs/run-store";
import { logger } from "../logger";

/** Path of the local executor's event endpoint on the app's own HTTP server. */
export const LOCAL_EVENT_PATH = "/_quarry/inngest";

/**
 * Local mode: the launcher's executor receives `inngest.send()` at <app>/_quarry/inngest/e/<key> and calls the
 * app's /api/inngest with signed requests. Keys are random per process unless configured, so nothing outside this
 * process can run functions or inject events.
 */
export const configureLocalJobs = ({ appOrigin }: { appOrigin: string }) => {
  setRuntimeEnv("QUARRY_JOB_RUNNER", "local");
  if (!env.INNGEST_SIGNING_KEY) setRuntimeEnv("INNGEST_SIGNING_KEY", generateSigningKey());
  if (!env.INNGEST_EVENT_KEY) setRuntimeEnv("INNGEST_EVENT_KEY", generateEventKey());
  setRuntimeEnv("INNGEST_BASE_URL", `${appOrigin}${LOCAL_EVENT_PATH}`);
};

/**
 * Builds left Pending or Processing by a crash. In local mode the executor resumes its own runs from Postgres;
 * only builds whose event never reached it (a crash between the insert and the send) are requested again.
 * An Inngest server dedupes re-sent events by id, so there every unfinished build is requested again.
 */
export const resumeUnfinishedBuilds = async () => {
  const builds = await listUnfinishedBuilds();
  if (builds.length === 0) return 0;
  let requested = 0;
  for (const build of builds) {
    if (jobRunner() === "local" && (await hasRunForEventData(db, "buildId", build.id))) continue;
    await requestBuild({ buildId: build.id, projectId: build.projectId, sourceId: build.sourceId }).catch((err) =>
      logger.error({ err, buildId: build.id }, "could not re-request an unfinished build"),
    );
    requested += 1;
  }
  logger.info({ unfinished: builds.length, requested }, "resumed unfinished builds");
  return requested;
};
