import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Flows = inferRouterOutputs<AppRouter>["dashboard"]["flows"];
export type GraphData = Flows["knowledgeGraph"];
export type GraphEntity = GraphData["entities"][number];
export type GraphCommunity = GraphData["communities"][number];
export type EntityChunk = Flows["knowledgeGraphEntity"][number];
export type SearchHit = Flows["knowledgeGraphSearch"][number];
/** What the details panel shows: a drawn entity, or a search hit that is not on the canvas. */
export type DetailEntity = Omit<GraphEntity, "x" | "y">;
export type GraphScope = { projectId: string; flow: string; node: string };
