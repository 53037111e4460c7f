import { z } from "zod";
import { AppError } from "@/server/errors";
import { isInternalMethod, methodDisplayName } from "@/server/parsing/methods.schema";
import type { UploadRequest } from "@/server/public-api/multipart";
import { resolveBuildOptions } from "@/server/ingestion/build-options";
import {
  BuildOptionsInput,
  ListSourcesPageInput,
  SourceInput,
  ViewerElementsInput,
} from "@/server/sources/dashboard.schema";
import { listBuildsOfSource, listSourcesPage, seesFailureDetails } from "@/server/sources/listing";
import { pageImageRefusal, pageScreenshot } from "@/server/sources/screenshot";
import { deleteSource, findSource, reprocessSource } from "@/server/sources/service";
import { ingestMultipartUpload } from "@/server/public-api/uploads";
import { viewerElement, viewerElements } from "@/server/sources/viewer";
import { projectProcedure, router } from "../../init";

const ProjectInput = z.object({ projectId: z.uuid() });

/** Sources of a project: the table, uploads, reprocess, delete, build history and the element viewer. */
export const sourcesRouter = router({
  list: projectProcedure("viewer")
    .input(ListSourcesPageInput)
    .query(({ ctx, input }) =>
      listSourcesPage({ ...input, projectId: ctx.projectId, details: seesFailureDetails(ctx.role) }),
    ),

  get: projectProcedure("viewer")
    .input(SourceInput)
    .query(async ({ ctx, input }) => {
      const source = await findSource({ projectId: ctx.projectId, fileId: input.sourceId });
      if (!source) throw new AppError("NOT_FOUND", "Source not found");
      return {
        id: source.id,
        fileName: source.fileName,
        fileType: source.fileType,
        status: source.status,
        method: source.method && isInternalMethod(source.method) ? methodDisplayName(source.method) : source.method,
      };
    }),

  builds: projectProcedure("viewer")
    .input(SourceInput)
    .query(({ ctx, input }) =>
      listBuildsOfSource({ projectId: ctx.projectId, sourceId: input.sourceId, details: seesFailureDetails(ctx.role) }),
    ),

  /** Browser upload (multipart, streamed); app/api/projects/[projectId]/upload hands the request over. */
  upload: projectProcedure("member")
    .input(
      ProjectInput.extend({
        // Only the upload route can hand over a streamed request; a JSON call to this procedure is refused.
        upload: z.custom<UploadRequest>(
          (v) => typeof v === "object" && v !== null && (v as UploadRequest).headers instanceof Headers,
          "Upload files through /api/projects/<projectId>/upload",
        ),
      }),
    )
    .mutation(({ ctx, input }) => ingestMultipartUpload({ projectId: ctx.projectId, upload: input.upload })),

  reprocess: projectProcedure("member")
    .input(SourceInput.extend(BuildOptionsInput.shape))
    .mutation(({ ctx, input }) =>
      reprocessSource({ projectId: ctx.projectId, fileId: input.sourceId, options: resolveBuildOptions(input) }),
    ),

  delete: projectProcedure("member")
    .input(SourceInput)
    .mutation(async ({ ctx, input }) => {
      const source = await deleteSource({ projectId: ctx.projectId, fileId: input.sourceId });
      return { id: source.id, fileName: source.fileName };
    }),

  /**
   * Opens the status stream (app/api/projects/[projectId]/events): the role check happens here, and whether the rows
   * it pushes may carry failure details.
   */
  watch: projectProcedure("viewer")
    .input(ProjectInput)
    .query(({ ctx }) => ({ projectId: ctx.projectId, details: seesFailureDetails(ctx.role) })),

  /**
   * A page image for the viewer; the route returns the PNG bytes, or the refusal (why there is no image) as JSON for
   * the viewer to show in its place.
   */
  pageImage: projectProcedure("viewer")
    .input(SourceInput.extend({ pageNumber: z.number().int().min(1), width: z.number().int().optional() }))
    .query(async ({ ctx, input }) => {
      try {
        const shot = await pageScreenshot({
          projectId: ctx.projectId,
          fileId: input.sourceId,
          pageNumber: input.pageNumber,
          maxWidth: input.width,
        });
        return { png: shot.png, refusal: null };
      } catch (error) {
        const source = await findSource({ projectId: ctx.projectId, fileId: input.sourceId });
        const refusal = source && pageImageRefusal(error, source.fileType, seesFailureDetails(ctx.role));
        if (!refusal) throw error;
        return { png: null, refusal };
      }
    }),

  elements: projectProcedure("viewer")
    .input(ViewerElementsInput)
    .query(({ ctx, input }) =>
      viewerElements({ ...input, projectId: ctx.projectId, details: seesFailureDetails(ctx.role) }),
    ),

  element: projectProcedure("viewer")
    .input(SourceInput.extend({ elementId: z.string().regex(/^[0-9a-f]{32}$/) }))
    .query(({ ctx, input }) => viewerElement({ ...input, projectId: ctx.projectId })),
});
