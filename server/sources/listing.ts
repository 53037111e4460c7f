import { publicBuildStatus, SUCCESSFUL_BUILD_STATUSES } from "../ingestion/builds";
import { db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { Build, Source } from "../generated/prisma/client";
import { isInternalMethod, methodDisplayName } from "../parsing/methods.schema";
import { roleAtLeast, type TeamRole } from "../teams/teams.schema";
import type { ListSourcesPageInput } from "./dashboard.schema";
import { userFailureMessage } from "./failure-message";

/**
 * Whether a role sees a failed build's stored reason (`error`) beside the sentence for users (`failure`): the
 * reason is written for whoever runs the server (hosts, settings, packages to install), so admins only.
 */
export const seesFailureDetails = (role: TeamRole) => roleAtLeast(role, "admin");

/** The dashboard's view of a build: what the table shows, kept small because it is pushed on every change. */
export const buildSummary = (build: Build, details = true) => ({
  id: build.id,
  kind: build.kind,
  status: publicBuildStatus(build.status),
  step: build.step,
  progress: build.progress,
  /** The stored reason (operator's words), for admins; null for everyone else. */
  error: details ? build.error : null,
  /** What a failed build means for the user and what they can do, in their words. */
  failure: build.status === "ProcessingFailed" ? userFailureMessage(build.error) : null,
  warnings: build.warnings,
  totalPages: build.totalPages,
  totalPartitions: build.totalPartitions,
  createdAt: build.createdAt,
  finishedAt: build.finishedAt,
});

const displayMethod = (method: string | null) =>
  method && isInternalMethod(method) ? methodDisplayName(method) : method;

export const sourceRow = (source: Source, build: Build | undefined, details = true) => ({
  id: source.id,
  fileName: source.fileName,
  fileType: source.fileType,
  fileSize: Number(source.fileSize),
  status: source.status,
  method: displayMethod(source.method),
  createdAt: source.createdAt,
  build: build ? buildSummary(build, details) : null,
});

export type SourceRow = ReturnType<typeof sourceRow>;

/** A row as a caller without failure details receives it (the status feed builds rows once for every listener). */
export const withoutFailureDetails = (row: SourceRow): SourceRow =>
  row.build ? { ...row, build: { ...row.build, error: null } } : row;

/** One page of a project's sources, filtered and sorted in the database, each with its newest build. */
export const listSourcesPage = async ({ details, ...input }: ListSourcesPageInput & { details: boolean }) => {
  const where: Prisma.SourceWhereInput = {
    projectId: input.projectId,
    ...(input.status ? { status: input.status } : {}),
    ...(input.built
      ? { builds: { some: { projectId: input.projectId, status: { in: SUCCESSFUL_BUILD_STATUSES } } } }
      : {}),
    ...(input.fileType ? { fileType: input.fileType.toLowerCase() } : {}),
    ...(input.query ? { fileName: { contains: input.query, mode: "insensitive" } } : {}),
  };
  const [total, sources, types] = await Promise.all([
    db.source.count({ where }),
    db.source.findMany({
      where,
      // The id breaks ties, so pages never overlap when many rows share a value.
      orderBy: [{ [input.sort]: input.direction }, { id: "asc" }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    db.source.groupBy({ by: ["fileType"], where: { projectId: input.projectId }, orderBy: { fileType: "asc" } }),
  ]);
  const builds = await db.build.findMany({
    where: { projectId: input.projectId, id: { in: sources.flatMap((s) => (s.lastBuildId ? [s.lastBuildId] : [])) } },
  });
  const byId = new Map(builds.map((b) => [b.id, b]));
  return {
    total,
    page: input.page,
    pageSize: input.pageSize,
    fileTypes: types.map((t) => t.fileType),
    items: sources.map((s) => sourceRow(s, s.lastBuildId ? byId.get(s.lastBuildId) : undefined, details)),
  };
};

export const listBuildsOfSource = async ({
  projectId,
  sourceId,
  details,
}: {
  projectId: string;
  sourceId: string;
  details: boolean;
}) => {
  const builds = await db.build.findMany({
    where: { projectId, sourceId },
    orderBy: { createdAt: "desc" },
    take: 50,
  });
  return builds.map((b) => ({
    ...buildSummary(b, details),
    method: displayMethod(b.method),
    enrichment: b.enrichment,
    indexing: b.indexing,
  }));
};
