import { fetcher, type Fetcher } from "../../connectors/fetch";
import { originOf } from "../../connectors/origin";
import { acquireOrigin } from "../../connectors/registry";
import { snapshotFolder, snapshotFolderOf } from "../../connectors/snapshot";
import { ACQUIRE_PROGRESS, type Acquired, type Report, type Reporter } from "../../connectors/types";
import { db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { logger } from "../../logger";
import { fileStore } from "../../storage";
import { enterStep, stepDone } from "../step-progress";

/**
 * The acquire step of a build: a connector source (web page or crawl, file URL, GitHub repository, YouTube video)
 * fetches its content into the file store before `partition` parses it. Uploads have nothing to acquire.
 *
 * Idempotent: a snapshot written by this build is never fetched again (a retry after a crash past this step), and
 * a reprocess re-parses the stored snapshot; only a `refresh` build (or a first build) goes to the network.
 */

const WRITE_INTERVAL_MS = 1000;

const createReporter = (buildId: string): Reporter => {
  let pending: { report: Report; progress?: number } | null = null;
  let lastWrite = 0;
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    if (!pending) return writing;
    const { report, progress } = pending;
    pending = null;
    lastWrite = Date.now();
    writing = writing
      .then(() =>
        db.build.update({
          where: { id: buildId },
          data: {
            acquired: report as Prisma.InputJsonValue,
            ...(progress !== undefined ? { progress: Math.round(progress) } : {}),
          },
        }),
      )
      .then(
        () => undefined,
        (err: unknown) => logger.warn({ err, buildId }, "crawl progress could not be written"),
      );
    return writing;
  };
  return {
    update: (report, progress) => {
      pending = { report: structuredClone(report), progress };
      if (Date.now() - lastWrite >= WRITE_INTERVAL_MS) void write();
    },
    flush: async () => {
      await write();
      await writing;
    },
  };
};

export const acquireBuild = async (buildId: string, deps: { fetcher?: Fetcher } = {}) => {
  const build = await db.build.findUnique({ where: { id: buildId }, include: { source: true } });
  if (!build) return null;
  const { source } = build;
  const origin = originOf(source.origin);
  if (!origin) return { skipped: "nothing to fetch for an upload" };
  const ids = { projectId: build.projectId, sourceId: build.sourceId };
  const folder = snapshotFolder(ids, buildId);
  if (source.storageKey?.startsWith(folder)) return { skipped: "fetched by this build already" };
  if (source.storageKey && build.kind !== "refresh") return { skipped: "the stored snapshot is parsed again" };

  await enterStep(buildId, "acquire", { progress: ACQUIRE_PROGRESS.start });
  const report = createReporter(buildId);
  let acquired: Acquired;
  try {
    acquired = await acquireOrigin(origin.kind, origin, {
      buildId,
      ...ids,
      folder,
      report,
      fetcher: deps.fetcher ?? fetcher(),
    });
  } finally {
    await report.flush();
  }
  const previous = snapshotFolderOf(source.storageKey);
  await db.$transaction([
    db.source.update({
      where: { id: source.id },
      data: {
        storageKey: acquired.storageKey,
        fileType: acquired.fileType,
        fileSize: acquired.fileSize,
        mimeType: acquired.mimeType ?? null,
      },
    }),
    db.build.update({
      where: { id: buildId },
      data: { acquired: acquired.report as Prisma.InputJsonValue, ...stepDone("acquire") },
    }),
  ]);
  // The old snapshot goes once the source points at the new one; a failure here only leaves files behind.
  if (previous && previous !== folder) {
    await fileStore()
      .deletePrefix(previous)
      .catch((err: unknown) => logger.warn({ err, folder: previous }, "old snapshot could not be removed"));
  }
  return { storageKey: acquired.storageKey, fileType: acquired.fileType, fileSize: acquired.fileSize };
};
