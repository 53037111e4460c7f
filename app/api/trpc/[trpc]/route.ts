import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { assertSameOriginUnlessSafe } from "@/server/auth/origin";
import { errorResponse } from "@/server/public-api/errors";
import { readBodyText } from "@/server/public-api/limits";
import { createDashboardContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";
import { logger } from "@/server/logger";

export const dynamic = "force-dynamic";

/**
 * The dashboard's RPC endpoint: session cookie; mutations (POST) only from this app's own pages, with a body no
 * larger than the public API's JSON limit (413 before more is read).
 */
const handler = async (req: Request) => {
  let request = req;
  try {
    assertSameOriginUnlessSafe(req);
    if (req.method === "POST") {
      request = new Request(req.url, { method: "POST", headers: req.headers, body: await readBodyText(req) });
    }
  } catch (error) {
    return errorResponse(error, logger);
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createDashboardContext(request),
  });
};

export { handler as GET, handler as POST };
