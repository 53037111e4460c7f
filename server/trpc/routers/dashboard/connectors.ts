import { z } from "zod";
import { CRAWL_LIMITS } from "@/server/connectors/origin";
import { ingestGithub, ingestUrl, ingestYoutube } from "@/server/connectors/ingest";
import { AppError } from "@/server/errors";
import { V2_METHODS } from "@/server/parsing/methods.schema";
import { resolveBuildOptions } from "@/server/ingestion/build-options";
import { acquiredForRole, latestAcquiringBuild } from "@/server/sources/acquired";
import { seesFailureDetails } from "@/server/sources/listing";
import { findSource } from "@/server/sources/service";
import { projectProcedure, router } from "../../init";

/**
 * The dashboard's way to add sources from the web, GitHub and YouTube (the same services as the public endpoints),
 * and to read what a source's latest build fetched: a crawl's pages with their fates, a repository's files, a
 * video's facts.
 */

const ProjectInput = z.object({ projectId: z.uuid() });

export const connectorsRouter = router({
  addUrl: projectProcedure("member")
    .input(
      ProjectInput.extend({
        url: z.string().trim().min(1),
        crawl: z.boolean().default(false),
        maxPages: z.number().int().min(1).max(CRAWL_LIMITS.maxPages).optional(),
        maxDepth: z.number().int().min(0).max(CRAWL_LIMITS.maxDepth).optional(),
        method: z.enum(V2_METHODS).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      ingestUrl({
        projectId: ctx.projectId,
        url: input.url,
        crawl: input.crawl,
        maxPages: input.maxPages,
        maxDepth: input.maxDepth,
        options: resolveBuildOptions({ method: input.method, defaultMethod: "auto" }),
      }),
    ),

  addGithub: projectProcedure("member")
    .input(ProjectInput.extend({ url: z.string().trim().min(1) }))
    .mutation(({ ctx, input }) =>
      ingestGithub({
        projectId: ctx.projectId,
        url: input.url,
        options: resolveBuildOptions({ defaultMethod: "auto" }),
      }),
    ),

  addYoutube: projectProcedure("member")
    .input(ProjectInput.extend({ url: z.string().trim().min(1), language: z.string().trim().max(12).optional() }))
    .mutation(({ ctx, input }) =>
      ingestYoutube({
        projectId: ctx.projectId,
        url: input.url,
        language: input.language || undefined,
        options: resolveBuildOptions({ defaultMethod: "auto" }),
      }),
    ),

  /** What the source's latest build fetched; null for an upload or before the build fetched anything. */
  acquired: projectProcedure("viewer")
    .input(ProjectInput.extend({ sourceId: z.uuid() }))
    .query(async ({ ctx, input }) => {
      const source = await findSource({ projectId: ctx.projectId, fileId: input.sourceId });
      if (!source) throw new AppError("NOT_FOUND", "Source not found");
      if (!source.origin) return null;
      const build = await latestAcquiringBuild({ projectId: ctx.projectId, sourceId: source.id });
      return {
        fileSource: source.fileSource,
        status: source.status,
        build: build ? { id: build.id, status: build.status, createdAt: build.createdAt } : null,
        acquired: acquiredForRole(build?.acquired ?? null, seesFailureDetails(ctx.role)) as Record<
          string,
          unknown
        > | null,
      };
    }),
});
