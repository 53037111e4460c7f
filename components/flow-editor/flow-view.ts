import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

/** A flow as the dashboard's editor loads it. */
export type FlowView = inferRouterOutputs<AppRouter>["dashboard"]["flows"]["get"];
