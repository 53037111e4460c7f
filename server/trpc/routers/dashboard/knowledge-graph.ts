import { knowledgeGraph, knowledgeGraphEntityChunks } from "@/server/flows/knowledge-graph";
import { searchKnowledgeGraph } from "@/server/flows/knowledge-graph-search";
import {
  KnowledgeGraphEntityInput,
  KnowledgeGraphSearchInput,
  KnowledgeGraphViewInput,
} from "@/server/flows/knowledge-graph.schema";
import { projectProcedure } from "../../init";

/**
 * The knowledge-graph view of a deployed graph-rag node (part of dashboard.flows): viewers read it. Another
 * project's flow, node or entity answers NOT_FOUND, as if it did not exist.
 */
export const knowledgeGraphProcedures = {
  knowledgeGraph: projectProcedure("viewer")
    .input(KnowledgeGraphViewInput)
    .query(({ ctx, input }) => knowledgeGraph(ctx.projectId, input.flow, input.node, input.limit)),

  /** The chunks an entity comes from, fetched when it is clicked. */
  knowledgeGraphEntity: projectProcedure("viewer")
    .input(KnowledgeGraphEntityInput)
    .query(({ ctx, input }) => knowledgeGraphEntityChunks(ctx.projectId, input.flow, input.node, input.entityId)),

  /** Entities of the whole graph whose name or description contains the text, drawn or not. */
  knowledgeGraphSearch: projectProcedure("viewer")
    .input(KnowledgeGraphSearchInput)
    .query(({ ctx, input }) => searchKnowledgeGraph(ctx.projectId, input.flow, input.node, input.text, input.limit)),
};
