import "server-only";
import { after } from "next/server";
import { isInitializeRequest, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { touchApiToken } from "../auth/api-tokens";
import { AppError } from "../errors";
import { refuseNul } from "../input-guard";
import { PROJECT_DELETING_DETAIL } from "../projects/projects.schema";
import { createTokenContext } from "../trpc/context";
import { DETAIL, detailResponse, errorResponse } from "../public-api/errors";
import { readBodyText, takeRequestSlot } from "../public-api/limits";
import type { TokenContext } from "./server";
import { countStream, findSession, openSession, statelessTransport } from "./sessions";

export const SESSION_NOT_FOUND = "Session not found";

export const INVALID_MESSAGE = "Invalid MCP message: expected a JSON-RPC 2.0 request, notification or response";

const isMessage = (value: unknown) =>
  Array.isArray(value)
    ? value.length > 0 && value.every((m) => JSONRPCMessageSchema.safeParse(m).success)
    : JSONRPCMessageSchema.safeParse(value).success;

/**
 * A JSON-RPC message (or batch) within the public API's JSON body limit (413 beyond), checked by the SDK's own
 * schema and refused with 400 `{detail}` here, like any other malformed body, when it is not one or holds U+0000.
 */
const readMessage = async (req: Request): Promise<unknown> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readBodyText(req));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("BAD_REQUEST", DETAIL.invalidJson);
  }
  refuseNul(parsed);
  if (!isMessage(parsed)) throw new AppError("BAD_REQUEST", INVALID_MESSAGE);
  return parsed;
};

/**
 * The transport's own refusals (a wrong Accept or Content-Type, an unsupported protocol version) carry a JSON-RPC
 * error; they are given the public API's `{detail}` shape with the same status and text. SDK clients read only the
 * status and the text of a refused request.
 */
const withDetail = async (answer: Promise<Response>): Promise<Response> => {
  const response = await answer;
  if (response.ok || !response.headers.get("content-type")?.includes("json")) return response;
  const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = body?.error?.message;
  return detailResponse(response.status, typeof message === "string" ? message : "Refused by the MCP transport");
};

const route = async (req: Request, ctx: TokenContext): Promise<Response> => {
  const sessionId = req.headers.get("mcp-session-id");
  if (sessionId) {
    const session = findSession(sessionId, ctx.auth.tokenId);
    // 404 tells an MCP client to initialize a new session (the protocol's rule for a session the server forgot).
    if (!session) return detailResponse(404, SESSION_NOT_FOUND);
    if (req.method === "GET") return countStream(session, await withDetail(session.transport.handleRequest(req)));
    const parsedBody = req.method === "POST" ? await readMessage(req) : undefined;
    return withDetail(session.transport.handleRequest(req, { parsedBody }));
  }
  // Without a session there is no event stream to open and nothing to end.
  if (req.method !== "POST") return detailResponse(405, DETAIL.methodNotAllowed, { Allow: "POST" });
  const parsedBody = await readMessage(req);
  if (isInitializeRequest(parsedBody)) return withDetail((await openSession(ctx)).handleRequest(req, { parsedBody }));
  const { transport, close } = await statelessTransport(ctx);
  try {
    return await withDetail(transport.handleRequest(req, { parsedBody }));
  } finally {
    close();
  }
};

/**
 * The MCP endpoint (Streamable HTTP): the Bearer API token first, as every public route, then the request rate
 * limit, then the session (sessions.ts) or a one-off stateless server. Errors before the protocol starts are the
 * public API's `{detail}`; the protocol's own errors are JSON-RPC errors, as MCP clients expect.
 */
export const handleMcp = async (req: Request): Promise<Response> => {
  const ctx = await createTokenContext(req);
  if (ctx.auth.kind !== "token") return detailResponse(401, DETAIL.unauthorized);
  if (ctx.auth.projectDeleting) return detailResponse(409, PROJECT_DELETING_DETAIL);
  const tokenId = ctx.auth.tokenId;
  try {
    takeRequestSlot(tokenId);
    const response = await route(req, ctx as TokenContext);
    after(() => touchApiToken(tokenId));
    return response;
  } catch (error) {
    return errorResponse(error, ctx.logger);
  }
};
