import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { listDeployedFlows, type DeployedFlow } from "../flows/deployed";
import type { Context } from "../trpc/context";
import type { TokenAuth } from "../auth/api-tokens";
import { callFlowTool, flowToolDescription, flowToolName, FlowToolArgs } from "./flow-tools";
import { errorDetail, publicApiFor } from "./public-api";
import { readSourceResource, sourceResources, SOURCE_RESOURCE_TEMPLATE } from "./resources";
import { SOURCE_TOOLS, ToolInputError, type SourceTool } from "./source-tools";

export type TokenContext = Context & { auth: { kind: "token" } & TokenAuth };

const BUILT_IN_NAMES: ReadonlySet<string> = new Set(SOURCE_TOOLS.map((t) => t.name));

const inputSchema = (schema: z.ZodObject): Tool["inputSchema"] => {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema; // the protocol's schema dialect is implied; the original server sent none
  return json as Tool["inputSchema"];
};

const sourceTool = (t: SourceTool): Tool => ({
  name: t.name,
  description: t.description,
  inputSchema: inputSchema(t.args),
});

/** Flow tools need the `write` permission, as POST /flows/{name} does. */
const flowTools = async (ctx: TokenContext) =>
  ctx.auth.permissions.includes("write")
    ? (await listDeployedFlows(ctx.auth.projectId)).map((flow) => ({
        flow,
        name: flowToolName(flow.name, BUILT_IN_NAMES),
      }))
    : [];

const flowTool = ({ flow, name }: { flow: DeployedFlow; name: string }): Tool => ({
  name,
  title: flow.name,
  description: flowToolDescription(flow),
  inputSchema: inputSchema(FlowToolArgs),
});

const textResult = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
});

/** A tool's failure is its result (isError), worded as the REST route words it; never a protocol error. */
const failure = async (error: unknown, ctx: TokenContext): Promise<CallToolResult> => {
  if (error instanceof ToolInputError) return { isError: true, content: [{ type: "text", text: error.message }] };
  const { status, detail } = await errorDetail(error, ctx);
  return { isError: true, content: [{ type: "text", text: detail }], structuredContent: { status, detail } };
};

const callTool = async (ctx: TokenContext, name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
  const api = publicApiFor(ctx);
  try {
    const builtIn = SOURCE_TOOLS.find((t) => t.name === name && ctx.auth.permissions.includes(t.permission));
    if (builtIn) return textResult(await builtIn.call(api, builtIn.args.parse(args)));
    const flow = (await flowTools(ctx)).find((f) => f.name === name);
    if (flow) return await callFlowTool(api, flow.flow.name, FlowToolArgs.parse(args));
    return { isError: true, content: [{ type: "text", text: `Unknown tool: ${name}` }] };
  } catch (error) {
    return failure(error, ctx);
  }
};

/**
 * One MCP server for one API token: it lists and calls only what that token may use. The tool list is read on
 * every tools/list, so a deploy shows at once; sessions.ts tells connected clients when it changed.
 */
export const createMcpServer = (ctx: TokenContext): Server => {
  const server = new Server(
    { name: "quarry", version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: true }, resources: {} },
      instructions:
        "Quarry: ingest documents, web pages, repositories and videos as sources, then ask, extract or retrieve " +
        "from them; each deployed flow of the project is a tool of its own.",
    },
  );
  const mayRead = ctx.auth.permissions.includes("read");
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...SOURCE_TOOLS.filter((t) => ctx.auth.permissions.includes(t.permission)).map(sourceTool),
      ...(await flowTools(ctx)).map(flowTool),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(ctx, request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: mayRead ? [SOURCE_RESOURCE_TEMPLATE] : [],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: mayRead ? await sourceResources(publicApiFor(ctx)) : [],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return await readSourceResource(publicApiFor(ctx), request.params.uri);
    } catch (error) {
      // The REST route's words (e.g. "Source not found"), never an internal message.
      throw new McpError(ErrorCode.InvalidParams, (await errorDetail(error, ctx)).detail);
    }
  });
  return server;
};
