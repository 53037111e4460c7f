import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { assertSameOriginUnlessSafe } from "@/server/auth/origin";
import { errorResponse } from "@/server/public-api/errors";
import { createDashboardContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";
import { logger } from "@/server/logger";

export const dynamic = "force-dynamic";

/** The dashboard's RPC endpoint: session cookie; mutations (POST) only from this app's own pages. */
const handler = async (req: Request) => {
  try {
    assertSameOriginUnlessSafe(req);
  } catch (error) {
    return errorResponse(error, logger);
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createDashboardContext(req),
  });
};

export { handler as GET, handler as POST };
