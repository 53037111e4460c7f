import { z } from "zod";
import { buildEstimate, cancelFlowDeploy, setTokenBudget } from "@/server/flows/budget";
import { requestDeploy } from "@/server/flows/deploy";
import {
  checkDraft,
  editorView,
  getRevision,
  listEditorFlows,
  listRevisions,
  restoreRevision,
  saveDraft,
} from "@/server/flows/editor";
import {
  CheckDraftInput,
  CreateFlowInput,
  DeployInput,
  EditorRunInput,
  FlowRef,
  RestoreRevisionInput,
  RevisionRef,
  SaveDraftInput,
} from "@/server/flows/editor.schema";
import { runDeployedFlow, simulateFlow } from "@/server/flows/run-flow";
import { respondToRun } from "@/server/public-api/v1/flows/run-response";
import { listPrompts } from "@/server/flows/prompts";
import { deleteFlow, requireFlow, saveFlow } from "@/server/flows/service";
import { projectProcedure, router } from "../../init";
import { knowledgeGraphProcedures } from "./knowledge-graph";

/**
 * The flow editor: viewers read flows, drafts, checks and revisions; members create, edit, deploy and run (a run
 * spends model tokens, as the chat playground's ask does). Deployed revisions only change by a deploy.
 */
export const flowsRouter = router({
  list: projectProcedure("viewer")
    .input(z.object({ projectId: z.uuid() }))
    .query(({ ctx }) => listEditorFlows(ctx.projectId)),

  create: projectProcedure("member")
    .input(CreateFlowInput)
    .mutation(async ({ ctx, input }) => {
      const flow = await saveFlow({
        projectId: ctx.projectId,
        name: input.name,
        description: input.description || null,
        graph: { nodes: [], edges: [] },
      });
      return { name: flow.name };
    }),

  delete: projectProcedure("member")
    .input(FlowRef)
    .mutation(async ({ ctx, input }) => {
      await deleteFlow(ctx.projectId, input.name);
      return { name: input.name };
    }),

  /** The draft; `url` is the path form unless PUBLIC_FLOWS_BASE makes it absolute. */
  get: projectProcedure("viewer")
    .input(FlowRef)
    .query(async ({ ctx, input }) => editorView(await requireFlow(ctx.projectId, input.name), "")),

  /** What building the draft's graphs and trees would spend, and the flow's token budget. */
  estimate: projectProcedure("viewer")
    .input(FlowRef)
    .query(({ ctx, input }) => buildEstimate(ctx.projectId, input.name)),

  setTokenBudget: projectProcedure("member")
    .input(FlowRef.extend({ tokens: z.number().int().min(0).nullable() }))
    .mutation(({ ctx, input }) => setTokenBudget(ctx.projectId, input.name, input.tokens)),

  cancelDeploy: projectProcedure("member")
    .input(FlowRef)
    .mutation(({ ctx, input }) => cancelFlowDeploy(ctx.projectId, input.name)),

  prompts: projectProcedure("viewer")
    .input(z.object({ projectId: z.uuid() }))
    .query(({ ctx }) => listPrompts(ctx.projectId)),

  saveDraft: projectProcedure("member")
    .input(SaveDraftInput)
    .mutation(({ ctx, input }) => saveDraft({ ...input, projectId: ctx.projectId })),

  /** The deploy checklist of a graph as edited (saved or not): the same check a deploy runs. */
  check: projectProcedure("viewer")
    .input(CheckDraftInput)
    .mutation(({ ctx, input }) => checkDraft(ctx.projectId, input.graph)),

  deploy: projectProcedure("member")
    .input(DeployInput)
    .mutation(({ ctx, input }) =>
      requestDeploy({
        projectId: ctx.projectId,
        flowName: input.name,
        toolDescription: input.description || null,
        deployedBy: ctx.auth.email,
      }),
    ),

  revisions: projectProcedure("viewer")
    .input(FlowRef)
    .query(({ ctx, input }) => listRevisions(ctx.projectId, input.name)),

  revision: projectProcedure("viewer")
    .input(RevisionRef)
    .query(({ ctx, input }) => getRevision(ctx.projectId, input.name, input.revisionId)),

  restore: projectProcedure("member")
    .input(RestoreRevisionInput)
    .mutation(({ ctx, input }) => restoreRevision({ ...input, projectId: ctx.projectId })),

  /** Answered as text/event-stream by app/api/projects/[projectId]/flows/[name]/run (node, token, done events). */
  run: projectProcedure("member")
    .input(EditorRunInput)
    .mutation(async ({ ctx, input }) => {
      const run =
        input.target === "deployed"
          ? await runDeployedFlow(ctx.projectId, input.name, input.query)
          : await simulateFlow(ctx.projectId, input.name, input.query);
      return respondToRun(run, { page: 1, pageSize: 20, stream: true });
    }),

  ...knowledgeGraphProcedures,
});
