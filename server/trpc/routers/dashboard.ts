import { z } from "zod";
import { latestSuccessfulBuild, publicBuildStatus } from "@/server/builds/service";
import { db } from "@/server/db";
import { AppError } from "@/server/errors";
import { methodDisplayName, isInternalMethod } from "@/server/parsing/methods.schema";
import { listProjects } from "@/server/projects/service";
import type { UploadRequest } from "@/server/public-api/multipart";
import { listElements } from "@/server/sources/elements";
import { findSource, listSources } from "@/server/sources/service";
import { ingestMultipartUpload } from "@/server/sources/upload";
import { operatorProcedure, projectProcedure, router } from "../init";
import { dashboardConnectorsRouter } from "./dashboard-connectors";

const ProjectInput = z.object({ projectId: z.uuid() });

export const dashboardRouter = router({
  projects: operatorProcedure.query(() => listProjects()),

  /** Sources from the web, GitHub and YouTube, and what their builds fetched. */
  connectors: dashboardConnectorsRouter,

  /** Sources with the state of their newest build, for the live list. */
  sources: projectProcedure.input(ProjectInput).query(async ({ ctx }) => {
    const sources = await listSources({ projectId: ctx.projectId });
    const builds = await db.build.findMany({
      where: {
        projectId: ctx.projectId,
        id: { in: sources.map((s) => s.lastBuildId).filter((id): id is string => !!id) },
      },
    });
    const byId = new Map(builds.map((b) => [b.id, b]));
    return sources.map((s) => {
      const build = s.lastBuildId ? byId.get(s.lastBuildId) : undefined;
      return {
        id: s.id,
        fileName: s.fileName,
        fileType: s.fileType,
        fileSize: Number(s.fileSize),
        status: s.status,
        method: s.method && isInternalMethod(s.method) ? methodDisplayName(s.method) : s.method,
        createdAt: s.createdAt,
        build: build
          ? {
              id: build.id,
              status: publicBuildStatus(build.status),
              step: build.step,
              progress: build.progress,
              error: build.error,
              warnings: build.warnings,
              totalPages: build.totalPages,
              totalPartitions: build.totalPartitions,
            }
          : null,
      };
    });
  }),

  elements: projectProcedure
    .input(
      ProjectInput.extend({
        sourceId: z.uuid(),
        page: z.number().int().min(1),
        pageSize: z.number().int().min(1).max(100),
      }),
    )
    .query(async ({ ctx, input }) => {
      const source = await findSource({ projectId: ctx.projectId, fileId: input.sourceId });
      if (!source) throw new AppError("NOT_FOUND", "Source not found");
      const build = await latestSuccessfulBuild({ projectId: ctx.projectId, sourceId: source.id });
      const page = build
        ? await listElements({
            projectId: ctx.projectId,
            buildId: build.id,
            pagination: { page: input.page, pageSize: input.pageSize },
            withImages: false,
          })
        : { items: [], total: 0, totalPages: 0 };
      return {
        source: { id: source.id, fileName: source.fileName, status: source.status },
        total: page.total,
        totalPages: page.totalPages ?? 0,
        items: page.items.map((e) => ({
          elementId: e.elementId,
          type: e.elementType,
          text: e.text,
          html: e.html,
          pageNumber: e.pageNumber,
          position: e.position,
        })),
      };
    }),

  /** Browser upload (multipart, streamed); the route in app/api/projects/[projectId]/upload hands it over. */
  upload: projectProcedure
    .input(ProjectInput.extend({ upload: z.custom<UploadRequest>() }))
    .mutation(({ ctx, input }) => ingestMultipartUpload({ projectId: ctx.projectId, upload: input.upload })),
});
