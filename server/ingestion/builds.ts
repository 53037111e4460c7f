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
 * Who wrote a build's enrichment as one string: one name, or several joined when the model failed for some pages and
 * the local extractor stood in (the model first). Null without enrichment.
 */
export const modelNames = (models: Iterable<string>): string | null => {
  const names = [...models].sort((a, b) => Number(a.startsWith("quarry-")) - Number(b.startsWith("quarry-")));
  return names.length > 0 ? names.join(", ") : null;
};

/**
 * Who wrote a build's enrichment. The enrich step records it on the build; a build that did not (one that reused
 * another's elements, or finished before the column existed) has it read once from its elements'
 * `metadata.enrichment_model` and kept.
 */
const enrichmentModelOf = async (build: { id: string; enrichmentModel: string | null }): Promise<string | null> => {
  if (build.enrichmentModel) return build.enrichmentModel;
  const rows = await db.$queryRaw<{ model: string }[]>`
    SELECT DISTINCT metadata->>'enrichment_model' AS model FROM elements
    WHERE build_id = ${build.id}::uuid AND metadata ? 'enrichment_model'`;
  const names = modelNames(rows.map((r) => r.model));
  if (names) await db.build.update({ where: { id: build.id }, data: { enrichmentModel: names } });
  return names;
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
  const enrichmentModel = succeeded && build.enrichment === "full" ? await enrichmentModelOf(build) : null;
  return { build: { ...build, enrichmentModel }, elements: page };
};
