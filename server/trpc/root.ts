import { createCallerFactory, router } from "./init";
import { dashboardRouter } from "./routers/dashboard/index";
import { legacySourcesRouter } from "./routers/legacy-sources";
import { publicAnswersRouter } from "./routers/public-answers";
import { publicConnectorsRouter } from "./routers/public-connectors";
import { publicFlowsRouter } from "./routers/public-flows";
import { publicSourcesRouter } from "./routers/public-sources";
import { publicWebhooksRouter } from "./routers/public-webhooks";

export const appRouter = router({
  /** Contract-shaped procedures behind the public REST routes (Bearer token). */
  publicApi: router({
    sources: publicSourcesRouter,
    legacy: legacySourcesRouter,
    connectors: publicConnectorsRouter,
    answers: publicAnswersRouter,
    flows: publicFlowsRouter,
    webhooks: publicWebhooksRouter,
  }),
  /** The dashboard's procedures (signed-in users, by team role). */
  dashboard: dashboardRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
