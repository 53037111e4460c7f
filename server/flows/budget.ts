import { db } from "../db";
import { env } from "../env";
import { AppError } from "../errors";
import { cancelDeploy } from "./deploy-indexes";
import { estimateIndexes, tokenBudgetOf } from "./node-indexes/service";
import { graphOf, requireFlow } from "./service";

/** A flow's token budget for graph and tree builds, what its draft would spend, and cancelling its deploy. */

export const buildEstimate = async (projectId: string, flowName: string) => {
  const flow = await requireFlow(projectId, flowName);
  const nodes = await estimateIndexes(projectId, graphOf(flow));
  return {
    budget: tokenBudgetOf(flow),
    flowBudget: flow.tokenBudget,
    defaultBudget: env.FLOW_BUILD_TOKEN_BUDGET,
    tokens: nodes.reduce((sum, n) => sum + n.tokens, 0),
    calls: nodes.reduce((sum, n) => sum + n.calls, 0),
    nodes,
  };
};

/** tokens null: the default budget (FLOW_BUILD_TOKEN_BUDGET). */
export const setTokenBudget = async (projectId: string, flowName: string, tokens: number | null) => {
  if (tokens !== null && (!Number.isInteger(tokens) || tokens < 0))
    throw new AppError("BAD_REQUEST", "The token budget must be a whole number of tokens, 0 or more");
  const flow = await requireFlow(projectId, flowName);
  await db.flow.update({ where: { id: flow.id }, data: { tokenBudget: tokens } });
  return { budget: tokens ?? env.FLOW_BUILD_TOKEN_BUDGET };
};

export const cancelFlowDeploy = async (projectId: string, flowName: string) => {
  const flow = await requireFlow(projectId, flowName);
  if (!(await cancelDeploy(flow.id))) throw new AppError("CONFLICT", `Flow '${flowName}' has no deploy running`);
  return { cancelled: true };
};
