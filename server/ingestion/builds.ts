import { db } from "../db";
import { AppError } from "../errors";
import type { BuildStatus } from "../generated/prisma/enums";
import { isUuid } from "../ids";
import { listElements, type Pagination } from "./elements";
import type { PublicBuildStatus } from "../sources/sources.schema";

export const ACTIVE_BUILD_STATUSES: BuildStatus[] = ["Pending", "Processing"];
export const SUCCESSFUL_BUILD_STATUSES: BuildStatus[] = ["Completed", "CompletedWithErrors"];

const PUBLIC_STATUS: Record<BuildStatus, PublicBuildStatus> = {
  Pending: "Pending",
  Processing: "Processing",
  Completed: "Completed",
  CompletedWithErrors: "Completed with errors",
  ProcessingFailed: "Processing failed",
};

export const publicBuildStatus = (status: BuildStatus): PublicBuildStatus => PUBLIC_STATUS[status];

/** A build of the project, with its source's name; null when unknown or in another project. */
export const findBuild = async ({ projectId, buildId }: { projectId: string; buildId: string }) => {
  if (!isUuid(buildId)) return null;
  return db.build.findFirst({
    where: { id: buildId, projectId },
    include: { source: { select: { fileName: true } } },
  });
};

/** The build whose elements a source currently shows: its newest successful one. */
export const latestSuccessfulBuild = ({ projectId, sourceId }: { projectId: string; sourceId: string }) =>
  db.build.findFirst({
    where: { projectId, sourceId, status: { in: SUCCESSFUL_BUILD_STATUSES } },
    orderBy: { createdAt: "desc" },
  });

/** Builds left Pending or Processing, e.g. by a crash; the launcher re-requests them on start. */
export const listUnfinishedBuilds = () =>
  db.build.findMany({
    where: { status: { in: ACTIVE_BUILD_STATUSES } },
    select: { id: true, projectId: true, sourceId: true },
    orderBy: { createdAt: "asc" },
  });

/**
 * Who wrote a build's enrichment, as the elements record it (`metadata.enrichment_model`): one name, or several
 * joined when the model failed for some pages and the local extractor stood in. Null without enrichment.
 */
export const enrichmentModelOf = async (buildId: string): Promise<string | null> => {
  const rows = await db.$queryRaw<{ model: string }[]>`
    SELECT DISTINCT metadata->>'enrichment_model' AS model FROM elements
    WHERE build_id = ${buildId}::uuid AND metadata ? 'enrichment_model'`;
  const models = rows
    .map((r) => r.model)
    .sort((a, b) => Number(a.startsWith("quarry-")) - Number(b.startsWith("quarry-")));
  return models.length > 0 ? models.join(", ") : null;
};

/**
 * A build as GET /builds reports it: null for an id that names no build of this project (reported as status
 * not_found, whether or not another project has such a build: no existence leak), a 404 for a malformed id, and the
 * build's elements once it succeeded, when asked for.
 */
export const getBuildWithElements = async ({
  projectId,
  buildId,
  elements,
}: {
  projectId: string;
  buildId: string;
  elements: { pagination: Pagination; withImages: boolean } | null;
}) => {
  if (!isUuid(buildId)) throw new AppError("NOT_FOUND", "Build not found");
  const build = await findBuild({ projectId, buildId });
  if (!build) return null;
  const succeeded = SUCCESSFUL_BUILD_STATUSES.includes(build.status);
  const page = elements && succeeded ? await listElements({ projectId, buildId, ...elements }) : null;
  const enrichmentModel = succeeded && build.enrichment === "full" ? await enrichmentModelOf(build.id) : null;
  return { build: { ...build, enrichmentModel }, elements: page };
};
