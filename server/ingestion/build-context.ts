import { db } from "../db";
import { AppError } from "../errors";
import type { PipelineStep } from "../sources/sources.schema";
import { enterStep } from "./step-progress";

/**
 * A source build as its steps see it. Each step is a plain, idempotent function of the build id: a retried or resumed
 * step first clears what an earlier attempt of the same step wrote. The job (inngest/functions/process-source-build.ts)
 * only orders them; state lives in the database, so step results stay small. A small upload chains the same steps'
 * work in memory and writes it in one transaction (small-build.ts).
 */

/** Why a build stopped when its project's deletion started (server/projects/delete.ts marks it failed with this). */
export const BUILD_CANCELLED_REASON = "Cancelled: the project is being deleted";

/**
 * Runs a step's work unless the build's project is being deleted; then it fails at once with the cancel's reason
 * (a final error: no retry), so the job writes nothing more for a project on its way out.
 */
export const unlessCancelled = async <T>(buildId: string, work: () => Promise<T>): Promise<T> => {
  const cancelled = await db.build.count({ where: { id: buildId, project: { deletingAt: { not: null } } } });
  if (cancelled > 0) throw new AppError("CONFLICT", BUILD_CANCELLED_REASON);
  return work();
};

/** The build when it is still wanted; null when it (or its source) was deleted meanwhile. */
export const activeBuild = (buildId: string) =>
  db.build.findUnique({ where: { id: buildId }, include: { source: true } });

export type LoadedBuild = {
  buildId: string;
  projectId: string;
  sourceId: string;
  indexing: string;
  kind: string;
  /** A small upload: its build runs as one step (small-build.ts). */
  small?: boolean;
};

/** What a build's job needs of the build and its source (small-build.ts). */
export type BuildWithSource = {
  id: string;
  projectId: string;
  sourceId: string;
  method: string;
  enrichment: string;
  indexing: string;
  kind: string;
  source: { fileName: string; fileType: string; storageKey: string | null };
  /** A source's first build, never started before: neither it nor an older build wrote anything to clear. */
  fresh?: boolean;
};

/** The build with its file name, shown in `step`; null when it was deleted meanwhile. */
export const buildInStep = async (buildId: string, step: PipelineStep) => {
  const build = await db.build.findUnique({
    where: { id: buildId },
    include: { source: { select: { fileName: true } } },
  });
  if (!build) return null;
  await enterStep(buildId, step);
  return build;
};
