import { z } from "zod";
import { NODE_KIND_DEFS } from "@/server/flows/node-kinds";
import { LIST_NAMES, SEGMENT_KINDS } from "@/server/flows/service";
import { DeployFlowInput, RunFlowInput, SimulateNodeInput } from "../v1/flows/requests.schema";
import {
  DeployResponse,
  GetFlowResponse,
  ListFlowsResponse,
  ListNodesResponse,
  PromptsResponse,
  RunFlowResponse,
  SimulateNodeResponse,
  UpdateNodeResponse,
} from "../v1/flows/responses.schema";
import { EXAMPLE_FILE_NAME, EXAMPLE_FLOW } from "./examples";
import type { RouteSpec } from "./route-spec";

/**
 * The flow service (contract §7). Each operation of one flow is written once, by its suffix after the flow's address;
 * document.ts publishes it in both address forms: `/api/public/v1/flows/{flow_name}<suffix>` and the host form
 * `http://{flow_name}.flows.<app host><suffix>`.
 */

export type FlowRouteSpec = Omit<RouteSpec, "path" | "tag"> & { suffix: string };

/** The non-streaming answer of a run; with `"stream": true` the route answers text/event-stream instead. */
const RunResult = RunFlowResponse.options[0];

const FLOW_NOT_FOUND = `Flow with name ${EXAMPLE_FLOW.name} not found`;
const flow = { params: { flow_name: EXAMPLE_FLOW.name } };

/** PATCH body of one kind: `{config: {...}}` with any of the kind's fields, the ones it requires on a patch too. */
const patchBody = (segment: string) => {
  const def = NODE_KIND_DEFS[SEGMENT_KINDS[segment]!];
  const fields = Object.entries(def.fields.shape).map(([key, field]) => [
    key,
    def.requiredOnPatch.includes(key) ? field : field.optional(),
  ]);
  return z.object({ config: z.object(Object.fromEntries(fields)) });
};

const nodeRoutes = (segment: string): FlowRouteSpec[] => [
  {
    method: "get",
    suffix: `/${segment}`,
    operationId: `list_${segment}`,
    procedure: "flows.nodes",
    summary: `The flow's ${LIST_NAMES[segment]} nodes`,
    permission: "read",
    response: ListNodesResponse,
    errors: { 404: "Flow not found" },
    ...(segment === "retrieval" ? { example: { ...flow, status: 200 } } : {}),
  },
  {
    method: "patch",
    suffix: `/${segment}/{node_id}`,
    operationId: `update_${segment}`,
    procedure: "flows.updateNode",
    summary: `Change a ${LIST_NAMES[segment]} node's config`,
    description:
      "Contract §7.1, §7.4: a partial merge (only the keys sent change). The same keys sent without the " +
      "`config` wrapper are accepted too.",
    permission: "write",
    pathParams: { node_id: "The node's id, `<node_type>-<digits>`." },
    body: { json: patchBody(segment) },
    response: UpdateNodeResponse,
    errors: { 400: "Invalid input: config is required", 404: "Flow not found" },
    ...(segment === "datasets"
      ? {
          example: {
            params: { ...flow.params, node_id: EXAMPLE_FLOW.datasetNodeId },
            body: { config: { files: [EXAMPLE_FILE_NAME] } },
            status: 200,
          },
        }
      : {}),
  },
];

export const FLOW_ROUTES: FlowRouteSpec[] = [
  {
    method: "get",
    suffix: "",
    operationId: "getFlow",
    procedure: "flows.get",
    summary: "One flow: status, run URL, last deploy",
    permission: "read",
    response: GetFlowResponse,
    errors: { 404: FLOW_NOT_FOUND },
    example: { ...flow, status: 200 },
  },
  ...Object.keys(SEGMENT_KINDS).flatMap(nodeRoutes),
  {
    method: "post",
    suffix: "/deploy",
    operationId: "deployFlow",
    procedure: "flows.deploy",
    summary: "Deploy the flow's current configuration",
    description: "Contract §7.3: answers when the deploy is done (up to 10 minutes).",
    permission: "deploy",
    body: { json: DeployFlowInput },
    response: DeployResponse,
    errors: { 400: "Failed to deploy flow: No Response Node found in flow", 404: FLOW_NOT_FOUND },
    example: { ...flow, body: { tool_description: "Answers questions about the quarry's notes." }, status: 200 },
  },
  {
    method: "post",
    suffix: "",
    operationId: "runFlow",
    procedure: "flows.run",
    summary: "Run the deployed flow",
    description: "Contract §7.2: one page of retrieved items, and the answer when the flow generates one.",
    permission: "write",
    body: { json: RunFlowInput },
    response: RunResult,
    streams: true,
    errors: { 400: "page_size must be an integer between 1 and 100", 404: `Flow ${EXAMPLE_FLOW.name} is not deployed` },
    example: { ...flow, body: { query: "How are granite blocks cut?", page_size: 5 }, status: 200 },
  },
  {
    method: "post",
    suffix: "/simulate",
    operationId: "simulateFlow",
    procedure: "flows.simulate",
    summary: "Run the flow's current configuration without deploying it",
    permission: "write",
    body: { json: RunFlowInput },
    response: RunResult,
    streams: true,
    errors: { 400: "query must be a string", 404: FLOW_NOT_FOUND },
  },
  {
    method: "post",
    suffix: "/nodes/simulate",
    operationId: "simulateNode",
    procedure: "flows.simulateNode",
    summary: "Run one node and the nodes after it",
    permission: "write",
    body: { json: SimulateNodeInput },
    response: SimulateNodeResponse,
    errors: { 404: "Flow not found" },
  },
  {
    method: "get",
    suffix: "/prompts",
    operationId: "listPrompts",
    procedure: "flows.prompts",
    summary: "The prompts an LLM node may use",
    permission: "read",
    response: PromptsResponse,
    errors: { 404: "Flow not found" },
    example: { ...flow, status: 200 },
  },
];

/** The project's flows: `GET /flows`, also served on the host `flows.<app host>/`. */
export const FLOW_LIST_ROUTE: RouteSpec = {
  method: "get",
  path: "/flows",
  operationId: "listFlows",
  procedure: "flows.list",
  summary: "The project's flows",
  description: "Contract §7.1; also served at `http://flows.<app host>/`.",
  tag: "Flows",
  permission: "read",
  response: ListFlowsResponse,
  example: { status: 200 },
};
