import { db } from "../db";
import { AppError, errorMessage } from "../errors";
import { sourceBuildRequested, type SourceBuildRequestedData } from "../jobs/events";
import { sendJobEvent } from "../jobs/send";
import { logger } from "../logger";

/**
 * Hands a build to the job runner. The event id is derived from the build id, so sending it twice (a retry, a
 * restart that re-requests unfinished builds) starts one run on an Inngest server.
 */
export const requestBuild = async (data: SourceBuildRequestedData) => {
  try {
    await sendJobEvent(sourceBuildRequested, data, { id: `build-${data.buildId}` });
  } catch (error) {
    logger.error({ err: error, buildId: data.buildId }, "could not schedule build");
    const message = `Could not schedule the build: ${errorMessage(error)}`;
    await db.build.update({
      where: { id: data.buildId },
      data: { status: "ProcessingFailed", error: message, finishedAt: new Date() },
    });
    await db.source.update({ where: { id: data.sourceId }, data: { status: "Failed" } });
    throw new AppError("INTERNAL", "Failed to schedule the build; try again");
  }
};
