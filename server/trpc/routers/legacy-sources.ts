import { z } from "zod";
import { getProject } from "@/server/projects/service";
import { toLegacyElementDto } from "@/server/public-api/v1/legacy/mappers";
import { toSourceDto } from "@/server/public-api/v1/sources/mappers";
import type { UploadRequest } from "@/server/public-api/multipart";
import { LegacyElementsInput, LegacyProcessInput, ScreenshotInput } from "@/server/public-api/v1/legacy/requests.schema";
import { legacyMultipartUpload } from "@/server/public-api/uploads";
import { legacyElements, processAndWait } from "@/server/sources/legacy";
import { pageScreenshot } from "@/server/sources/screenshot";
import { failureReasons } from "@/server/sources/service";
import type { Source } from "@/server/generated/prisma/client";
import { checked } from "@/server/public-api/checked";
import { LegacyElementsResponse, ScreenshotResponse } from "@/server/public-api/v1/legacy/responses.schema";
import { SourceResponse } from "@/server/public-api/v1/sources/responses.schema";
import { apiProcedure, router } from "../init";

const sourceResponse = async (source: Source) =>
  toSourceDto(
    source,
    await getProject(source.projectId),
    (await failureReasons(source.projectId, [source])).get(source.id),
  );

/**
 * Contract §6: the earlier endpoints old clients still call (synchronous upload and process, LangChain-style
 * elements), and the page screenshots of §5.11, which share their source lookups.
 */
export const legacySourcesRouter = router({
  upload: apiProcedure("write")
    .input(z.object({ upload: z.custom<UploadRequest>(), signal: z.custom<AbortSignal>().optional() }))
    .output(checked(SourceResponse))
    .mutation(async ({ ctx, input }) =>
      sourceResponse(
        await legacyMultipartUpload({ projectId: ctx.projectId, upload: input.upload, signal: input.signal }),
      ),
    ),

  process: apiProcedure("write")
    .input(LegacyProcessInput)
    .output(checked(SourceResponse))
    .mutation(async ({ ctx, input }) =>
      sourceResponse(
        await processAndWait({
          projectId: ctx.projectId,
          fileId: input.file_id,
          fileName: input.file_name,
          method: input.partition_method,
          signal: input.signal,
        }),
      ),
    ),

  // A POST, so `write` like every POST of the contract (§1), although it only reads.
  elements: apiProcedure("write")
    .input(LegacyElementsInput)
    .output(checked(LegacyElementsResponse))
    .mutation(async ({ ctx, input }) => {
      // Pagination only when both are given (contract §6), unlike GET /builds.
      const pagination =
        input.page !== undefined && input.page_size !== undefined
          ? { page: input.page, pageSize: input.page_size }
          : null;
      const { source, items, total, totalPages } = await legacyElements({
        projectId: ctx.projectId,
        fileId: input.file_id,
        fileName: input.file_name,
        filters: {
          type: input.filter?.type ?? undefined,
          pageNumbers: input.filter?.page_numbers,
          elementsToRemove: input.filter?.elementsToRemove,
        },
        pagination,
      });
      return {
        items: items.map((e) => toLegacyElementDto(e, source)),
        total,
        page: pagination?.page ?? null,
        page_size: pagination?.pageSize ?? null,
        total_pages: totalPages,
      };
    }),

  screenshot: apiProcedure("read")
    .input(ScreenshotInput)
    .output(checked(ScreenshotResponse))
    .query(async ({ ctx, input }) => {
      const shot = await pageScreenshot({
        projectId: ctx.projectId,
        fileId: input.file_id,
        pageNumber: input.page_number,
        maxWidth: input.max_width,
      });
      return {
        file_id: shot.source.id,
        file_name: shot.source.fileName,
        page_number: input.page_number,
        mime_type: "image/png" as const,
        width: shot.width,
        height: shot.height,
        image_base64: shot.png.toString("base64"),
      };
    }),
});
