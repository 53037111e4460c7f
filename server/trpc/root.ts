import { createCallerFactory, router } from "./init";
import { dashboardRouter } from "./routers/dashboard";
import { publicSourcesRouter } from "./routers/public-sources";

export const appRouter = router({
  /** Contract-shaped procedures behind the public REST routes (Bearer token). */
  publicApi: router({ sources: publicSourcesRouter }),
  /** The dashboard's procedures (local operator). */
  dashboard: dashboardRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
