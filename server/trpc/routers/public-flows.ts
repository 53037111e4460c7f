import { z } from "zod";
import { apiTokenName } from "@/server/auth/api-tokens";
import { AppError } from "@/server/errors";
import { resolveDatasetFiles } from "@/server/flows/datasets";
import { requestDeploy } from "@/server/flows/deploy";
import { runDeployedFlow, simulateFlow, simulateNode } from "@/server/flows/run-flow";
import { listPrompts, promptIds } from "@/server/flows/prompts";
import { latestRevision } from "@/server/flows/public-queries";
import { FlowNotFoundError, kindOfSegment, listFlows, requireFlow, updateNodeConfig } from "@/server/flows/service";
import { listNodeViews } from "@/server/flows/node-results";
import { checked } from "@/server/public-api/checked";
import { toFlowDetail, toFlowSummary, toNodeDto, toSimulateNodeResponse } from "@/server/public-api/v1/flows/mappers";
import { DeployFlowInput, RunFlowInput } from "@/server/public-api/v1/flows/requests.schema";
import { respondToRun } from "@/server/public-api/v1/flows/run-response";
import {
  DeployResponse,
  GetFlowResponse,
  ListFlowsResponse,
  ListNodesResponse,
  PromptsResponse,
  RunFlowResponse,
  SimulateNodeResponse,
  UpdateNodeResponse,
} from "@/server/public-api/v1/flows/responses.schema";
import { apiProcedure, router } from "../init";

/** Contract §7: the flow service. The route handlers pass the flow name from the path (or the Host header). */

const Named = z.object({ flowName: z.string().max(100) });
const WithBody = Named.extend({ body: z.record(z.string(), z.unknown()) });

/** The node and prompt routes (§7.1) answer a missing flow with a bare "Flow not found". */
const withShortNotFound = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FlowNotFoundError) throw new AppError("NOT_FOUND", "Flow not found");
    throw error;
  }
};

const runInput = (body: Record<string, unknown>) => {
  const input = RunFlowInput.parse(body);
  return { query: input.query, answer: { page: input.page, pageSize: input.page_size, stream: input.stream } };
};

export const publicFlowsRouter = router({
  list: apiProcedure("read")
    .input(z.object({ origin: z.string() }))
    .output(checked(ListFlowsResponse))
    .query(async ({ ctx, input }) => {
      const flows = await listFlows(ctx.projectId);
      return { flows: flows.map((f) => toFlowSummary(f, input.origin)), total: flows.length };
    }),

  get: apiProcedure("read")
    .input(Named.extend({ origin: z.string() }))
    .output(checked(GetFlowResponse))
    .query(async ({ ctx, input }) => {
      const { id } = await requireFlow(ctx.projectId, input.flowName);
      // The revision first, then the flow: a deploy marks both in one transaction, so a ready revision is never
      // shown beside the flow's status from before it (read the other way round, under load it was).
      const latest = await latestRevision(id);
      return toFlowDetail(await requireFlow(ctx.projectId, input.flowName), latest, input.origin);
    }),

  run: apiProcedure("write")
    .input(WithBody)
    .output(checked(RunFlowResponse))
    .mutation(async ({ ctx, input }) => {
      const { query, answer } = runInput(input.body);
      return respondToRun(await runDeployedFlow(ctx.projectId, input.flowName, query), answer);
    }),

  simulate: apiProcedure("write")
    .input(WithBody)
    .output(checked(RunFlowResponse))
    .mutation(async ({ ctx, input }) => {
      const { query, answer } = runInput(input.body);
      return respondToRun(await simulateFlow(ctx.projectId, input.flowName, query), answer);
    }),

  deploy: apiProcedure("deploy")
    .input(WithBody)
    .output(checked(DeployResponse))
    .mutation(async ({ ctx, input }) => {
      const description = DeployFlowInput.parse(input.body).tool_description;
      const tokenName = await apiTokenName(ctx.auth.tokenId);
      return requestDeploy({
        projectId: ctx.projectId,
        flowName: input.flowName,
        toolDescription: description,
        deployedBy: tokenName === null ? "API token" : `API token ${tokenName}`,
      });
    }),

  simulateNode: apiProcedure("write")
    .input(WithBody)
    .output(checked(SimulateNodeResponse))
    .mutation(({ ctx, input }) =>
      withShortNotFound(async () =>
        toSimulateNodeResponse(await simulateNode(ctx.projectId, input.flowName, input.body.node_id)),
      ),
    ),

  nodes: apiProcedure("read")
    .input(Named.extend({ segment: z.string() }))
    .output(checked(ListNodesResponse))
    .query(async ({ ctx, input }) => {
      const kind = kindOfSegment(input.segment);
      const flow = await withShortNotFound(() => requireFlow(ctx.projectId, input.flowName));
      return (await listNodeViews(flow, [kind])).map(toNodeDto);
    }),

  updateNode: apiProcedure("write")
    .input(WithBody.extend({ segment: z.string(), nodeId: z.string().max(200) }))
    .output(checked(UpdateNodeResponse))
    .mutation(({ ctx, input }) =>
      withShortNotFound(() =>
        updateNodeConfig({
          projectId: ctx.projectId,
          flowName: input.flowName,
          segment: input.segment,
          nodeId: input.nodeId,
          body: input.body,
          resolve: async (kind, patch) => {
            if (kind === "dataset") return resolveDatasetFiles(ctx.projectId, patch);
            if (typeof patch.promptId === "string" && !(await promptIds(ctx.projectId)).has(patch.promptId))
              throw new AppError("BAD_REQUEST", `Prompt '${patch.promptId}' not found`);
            return patch;
          },
        }),
      ),
    ),

  prompts: apiProcedure("read")
    .input(Named)
    .output(checked(PromptsResponse))
    .query(async ({ ctx, input }) => {
      await withShortNotFound(() => requireFlow(ctx.projectId, input.flowName));
      return listPrompts(ctx.projectId);
    }),
});
