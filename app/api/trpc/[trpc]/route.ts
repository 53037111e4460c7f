import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createDashboardContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createDashboardContext(req),
  });

export { handler as GET, handler as POST };
