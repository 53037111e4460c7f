import { ingestGithub, ingestUrl, ingestYoutube } from "@/server/connectors/ingest";
import { AppError } from "@/server/errors";
import { getProject } from "@/server/projects/service";
import { toSourceDto } from "@/server/public-api/v1/sources/mappers";
import {
  IngestGithubInput,
  IngestUrlInput,
  IngestYoutubeInput,
  LegacyConnectorInput,
  LegacyUploadUrlInput,
} from "@/server/public-api/v1/connectors/requests.schema";
import { resolveBuildOptions } from "@/server/ingestion/build-options";
import { finishedSource, legacyBuildOptions } from "@/server/sources/legacy";
import { failureReasons, findSource } from "@/server/sources/service";
import type { Source } from "@/server/generated/prisma/client";
import { checked } from "@/server/public-api/checked";
import { IngestResponse, SourceResponse } from "@/server/public-api/v1/sources/responses.schema";
import { apiProcedure, router } from "../init";

const ingestResponse = ({ buildId }: { buildId: string }) => ({ build_id: buildId, success: true, error: null });

const toResponse = async (projectId: string, source: Source) =>
  toSourceDto(source, await getProject(projectId), (await failureReasons(projectId, [source])).get(source.id));

const sourceDto = async (projectId: string, sourceId: string) => {
  const source = await findSource({ projectId, fileId: sourceId });
  // Deleted while it was being built.
  if (!source) throw new AppError("NOT_FOUND", "Source not found");
  return toResponse(projectId, source);
};

/** The synchronous legacy calls (§6): the source once its build has finished (Completed or Failed). */
const waitForSource = async (projectId: string, created: { buildId: string; sourceId: string }, signal?: AbortSignal) =>
  toResponse(projectId, await finishedSource({ projectId, ...created, signal }));

/** Contract §5.3–5.5 and the legacy §6 forms: sources fetched from the web, GitHub and YouTube. */
export const publicConnectorsRouter = router({
  ingestUrl: apiProcedure("write")
    .input(IngestUrlInput)
    .output(checked(IngestResponse))
    .mutation(async ({ ctx, input }) =>
      ingestResponse(
        await ingestUrl({
          projectId: ctx.projectId,
          url: input.url,
          crawl: input.crawlUrls ?? input.crawl_urls ?? false,
          maxPages: input.max_pages,
          maxDepth: input.max_depth,
          options: resolveBuildOptions({
            ...input,
            method: input.method ?? input.partition_method,
            defaultMethod: "auto",
          }),
        }),
      ),
    ),

  ingestGithub: apiProcedure("write")
    .input(IngestGithubInput)
    .output(checked(IngestResponse))
    .mutation(async ({ ctx, input }) =>
      ingestResponse(
        await ingestGithub({
          projectId: ctx.projectId,
          url: input.url,
          options: resolveBuildOptions({
            ...input,
            method: input.method ?? input.partition_method,
            defaultMethod: "auto",
          }),
        }),
      ),
    ),

  ingestYoutube: apiProcedure("write")
    .input(IngestYoutubeInput)
    .output(checked(IngestResponse))
    .mutation(async ({ ctx, input }) =>
      ingestResponse(
        await ingestYoutube({
          projectId: ctx.projectId,
          url: input.url,
          language: input.language,
          options: resolveBuildOptions({
            ...input,
            method: input.method ?? input.partition_method,
            defaultMethod: "auto",
          }),
        }),
      ),
    ),

  /** Legacy: schedules and answers at once with the source (status Processing, file_size 0). */
  uploadUrl: apiProcedure("write")
    .input(LegacyUploadUrlInput)
    .output(checked(SourceResponse))
    .mutation(async ({ ctx, input }) => {
      const created = await ingestUrl({
        projectId: ctx.projectId,
        url: input.url,
        crawl: input.crawlUrls ?? input.crawl_urls ?? false,
        maxPages: input.max_pages,
        maxDepth: input.max_depth,
        options: legacyBuildOptions(input.partition_method),
      });
      return sourceDto(ctx.projectId, created.sourceId);
    }),

  uploadGithub: apiProcedure("write")
    .input(LegacyConnectorInput)
    .output(checked(SourceResponse))
    .mutation(async ({ ctx, input }) =>
      waitForSource(
        ctx.projectId,
        await ingestGithub({ projectId: ctx.projectId, url: input.url, options: legacyBuildOptions() }),
        input.signal,
      ),
    ),

  uploadYoutube: apiProcedure("write")
    .input(LegacyConnectorInput)
    .output(checked(SourceResponse))
    .mutation(async ({ ctx, input }) =>
      waitForSource(
        ctx.projectId,
        await ingestYoutube({ projectId: ctx.projectId, url: input.url, options: legacyBuildOptions() }),
        input.signal,
      ),
    ),
});
