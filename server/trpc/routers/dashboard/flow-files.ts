import { z } from "zod";
import { rollback } from "@/server/flows/deploy";
import { FlowRef, ImportFlowInput, RevisionRef, TemplateInput } from "@/server/flows/editor.schema";
import {
  createFromTemplate,
  duplicateFlow,
  exportFlowFile,
  flowTemplates,
  importFlowFile,
} from "@/server/flows/flow-transfer";
import { projectProcedure, router } from "../../init";

/**
 * Flows in and out of the dashboard: the shipped templates, JSON import and export, duplicate, and a one-click
 * rollback to a kept revision. Viewers read (templates, export); members change.
 */
export const flowFilesRouter = router({
  templates: projectProcedure("viewer")
    .input(z.object({ projectId: z.uuid() }))
    .query(() => flowTemplates()),

  fromTemplate: projectProcedure("member")
    .input(TemplateInput)
    .mutation(({ ctx, input }) => createFromTemplate(ctx.projectId, input.template)),

  import: projectProcedure("member")
    .input(ImportFlowInput)
    .mutation(({ ctx, input }) => importFlowFile(ctx.projectId, input.file, { name: input.name })),

  export: projectProcedure("viewer")
    .input(FlowRef)
    .query(({ ctx, input }) => exportFlowFile(ctx.projectId, input.name)),

  duplicate: projectProcedure("member")
    .input(FlowRef)
    .mutation(({ ctx, input }) => duplicateFlow(ctx.projectId, input.name)),

  /** Traffic moves to a kept, successfully built revision at once (no rebuild). */
  rollback: projectProcedure("member")
    .input(RevisionRef)
    .mutation(async ({ ctx, input }) => {
      const revision = await rollback(ctx.projectId, input.name, input.revisionId);
      return { revisionId: revision.id, number: revision.number };
    }),
});
