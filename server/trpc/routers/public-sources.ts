import { z } from "zod";
import { requestIndexBuild } from "@/server/ingestion/index-build";
import { getBuildWithElements, latestSuccessfulBuild } from "@/server/ingestion/builds";
import { AppError } from "@/server/errors";
import { V2_METHODS } from "@/server/parsing/methods.schema";
import { unavailableFeatures } from "@/server/parsing/tool-features";
import { getProject } from "@/server/projects/service";
import type { UploadRequest } from "@/server/public-api/multipart";
import { notFoundBuildDto, toBuildStatusDto, toElementDto, toSourceDto } from "@/server/public-api/v1/sources/mappers";
import {
  DeleteSourceInput,
  GetBuildInput,
  GetElementsInput,
  IndexBuildInput,
  ListSourcesInput,
  PrebuiltRagInput,
  ReprocessInput,
} from "@/server/public-api/v1/sources/requests.schema";
import { retrievalConfig } from "@/server/retrieval/config";
import { retrieveChunks } from "@/server/retrieval/service";
import { toPrebuiltRagResponse } from "@/server/public-api/v1/retrieval/mappers";
import { indexingOptions, resolveBuildOptions } from "@/server/ingestion/build-options";
import { listElements } from "@/server/ingestion/elements";
import {
  deleteSource,
  failureReasons,
  findSource,
  findSourceByName,
  listSources,
  reprocessSource,
} from "@/server/sources/service";
import { ingestMultipartUpload } from "@/server/public-api/uploads";
import { MAX_UPLOAD_BYTES } from "@/server/sources/upload";
import { ALLOWED_EXTENSIONS, ENRICHMENT_OPTIONS } from "@/server/sources/sources.schema";
import { checked } from "@/server/public-api/checked";
import {
  ConfigResponse,
  DeleteSourceResponse,
  GetBuildResponse,
  GetElementsResponse,
  IngestResponse,
  ListSourcesResponse,
  PrebuiltRagResponse,
} from "@/server/public-api/v1/sources/responses.schema";
import { apiProcedure, router } from "../init";

/** Pagination is on when either `page` or `page_size` is given; the missing one defaults (contract §11.22). */
const paginationOf = (page?: number, pageSize?: number) =>
  page === undefined && pageSize === undefined ? null : { page: page ?? 1, pageSize: pageSize ?? 20 };

const ingestResponse = ({ buildId }: { buildId: string }) => ({ build_id: buildId, success: true, error: null });

/** Contract §5: the current sources endpoints. Every procedure here is one public REST operation. */
export const publicSourcesRouter = router({
  config: apiProcedure("read")
    .output(checked(ConfigResponse))
    .query(async ({ ctx }) => ({
      indexing_options: indexingOptions(),
      enrichment_options: [...ENRICHMENT_OPTIONS],
      methods: [...V2_METHODS],
      // What an ingest without `method` runs (contract §5.8, decision 6); /reprocess alone still defaults to fast.
      default_method: "auto",
      max_file_size_bytes: MAX_UPLOAD_BYTES,
      allowed_extensions: [...ALLOWED_EXTENSIONS],
      ...(await retrievalConfig(ctx.projectId)),
      // A key clients may ignore: what this server cannot do for lack of a system tool, [] when nothing is missing.
      unavailable_features: await unavailableFeatures(),
    })),

  list: apiProcedure("read")
    .input(ListSourcesInput)
    .output(checked(ListSourcesResponse))
    .query(async ({ ctx, input }) => {
      const project = await getProject(ctx.projectId);
      const sources = await listSources({ projectId: ctx.projectId, fileIds: input.file_ids });
      const failures = await failureReasons(ctx.projectId, sources);
      return sources.map((s) => toSourceDto(s, project, failures.get(s.id)));
    }),

  ingestFile: apiProcedure("write")
    .input(z.object({ upload: z.custom<UploadRequest>() }))
    .output(checked(IngestResponse))
    .mutation(async ({ ctx, input }) =>
      ingestResponse(await ingestMultipartUpload({ projectId: ctx.projectId, upload: input.upload })),
    ),

  getBuild: apiProcedure("read")
    .input(GetBuildInput)
    .output(checked(GetBuildResponse))
    .query(async ({ ctx, input }) => {
      const pagination = paginationOf(input.page, input.page_size);
      const found = await getBuildWithElements({
        projectId: ctx.projectId,
        buildId: input.build_id,
        elements: input.suppress_elements ? null : { pagination, withImages: !input.suppress_img_base64 },
      });
      if (!found) return notFoundBuildDto(input.build_id);
      const dto = toBuildStatusDto(found.build);
      if (input.suppress_elements) return dto;
      const source = { id: found.build.sourceId, fileName: found.build.source.fileName };
      return {
        ...dto,
        elements: found.elements?.items.map((e) => toElementDto(e, source)) ?? null,
        total_elements: found.elements?.total ?? null,
        page: pagination?.page ?? null,
        page_size: pagination?.pageSize ?? null,
        total_pages_elements: found.elements?.totalPages ?? null,
      };
    }),

  getElements: apiProcedure("read")
    .input(GetElementsInput)
    .output(checked(GetElementsResponse))
    .query(async ({ ctx, input }) => {
      const source = await findSource({ projectId: ctx.projectId, fileId: input.file_id });
      if (!source) throw new AppError("NOT_FOUND", "Source not found");
      const pagination =
        input.page !== undefined && input.page_size !== undefined
          ? { page: input.page, pageSize: input.page_size }
          : null;
      const build = await latestSuccessfulBuild({ projectId: ctx.projectId, sourceId: source.id });
      const { items, total, totalPages } = build
        ? await listElements({
            projectId: ctx.projectId,
            buildId: build.id,
            filters: {
              type: input.type,
              pageNumbers: input.page_numbers,
              elementIds: input.element_ids,
              elementsToRemove: input.elementsToRemove,
            },
            pagination,
            withImages: !input.suppress_img_base64,
          })
        : { items: [], total: 0, totalPages: pagination ? 0 : null };
      return {
        items: items.map((e) => toElementDto(e, source)),
        total,
        page: pagination?.page ?? null,
        page_size: pagination?.pageSize ?? null,
        total_pages: totalPages,
      };
    }),

  reprocess: apiProcedure("write")
    .input(ReprocessInput)
    .output(checked(IngestResponse))
    .mutation(async ({ ctx, input }) => {
      const options = resolveBuildOptions({ ...input, method: input.method ?? input.partition_method });
      return ingestResponse(
        await reprocessSource({ projectId: ctx.projectId, fileId: input.file_id, options, refresh: input.refresh }),
      );
    }),

  index: apiProcedure("write")
    .input(IndexBuildInput)
    .output(checked(IngestResponse))
    .mutation(async ({ ctx, input }) =>
      ingestResponse(
        await requestIndexBuild({
          projectId: ctx.projectId,
          ...(input.build_id ? { buildId: input.build_id } : { fileId: input.file_id }),
        }),
      ),
    ),

  delete: apiProcedure("delete")
    .input(DeleteSourceInput)
    .output(checked(DeleteSourceResponse))
    .mutation(async ({ ctx, input }) => {
      const fileId = input.file_id?.trim()
        ? input.file_id.trim()
        : (await findSourceByName({ projectId: ctx.projectId, fileName: input.file_name!.trim() }))?.id;
      if (!fileId) throw new AppError("NOT_FOUND", "Source not found");
      const source = await deleteSource({ projectId: ctx.projectId, fileId });
      const project = await getProject(ctx.projectId);
      return {
        status: "success",
        message: "Source deleted successfully",
        file_id: source.id,
        file_name: source.fileName,
        project_id: project.id,
        project_name: project.name,
      };
    }),

  prebuiltRag: apiProcedure("write")
    .input(PrebuiltRagInput)
    .output(checked(PrebuiltRagResponse))
    .mutation(async ({ ctx, input }) => {
      const result = await retrieveChunks({
        projectId: ctx.projectId,
        query: input.query,
        fileIds: input.file_ids ?? undefined,
        fileNames: input.file_names ?? undefined,
        searchType: input.search_type,
        project: ctx.auth.project,
      });
      return toPrebuiltRagResponse(input.query, result);
    }),
});
