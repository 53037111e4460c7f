import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type SourceRow = Outputs["dashboard"]["sources"][number];
export type SourceStatus = SourceRow["status"];
export type ElementsPage = Outputs["dashboard"]["elements"];
export type ElementItem = ElementsPage["items"][number];
