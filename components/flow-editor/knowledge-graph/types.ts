import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Flows = inferRouterOutputs<AppRouter>["dashboard"]["flows"];
export type GraphData = Flows["knowledgeGraph"];
export type GraphEntity = GraphData["entities"][number];
export type GraphCommunity = GraphData["communities"][number];
export type EntityChunk = Flows["knowledgeGraphEntity"][number];
