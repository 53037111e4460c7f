import { handleMcp } from "@/server/mcp/handle";
import { notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/**
 * The MCP endpoint (Streamable HTTP, server/mcp/). Here rather than under /api/public/v1: it is one protocol
 * endpoint, not a REST operation of the contract, and clients are configured with its URL alone.
 */
export const POST = handleMcp;
export const GET = handleMcp;
export const DELETE = handleMcp;
export const { PUT, PATCH } = notAllowed;
