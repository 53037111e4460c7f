import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Dashboard = inferRouterOutputs<AppRouter>["dashboard"];

export type SourcesPage = Dashboard["sources"]["list"];
export type SourceRow = SourcesPage["items"][number];
export type SourceStatus = SourceRow["status"];
export type BuildRow = Dashboard["sources"]["builds"][number];
export type ViewerPage = Dashboard["sources"]["elements"];
export type ViewerItem = ViewerPage["items"][number];
export type ElementDetail = Dashboard["sources"]["element"];
export type SearchResult = Dashboard["search"]["query"];
