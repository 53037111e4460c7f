import { knowledgeGraph, knowledgeGraphEntityChunks } from "@/server/flows/knowledge-graph";
import { KnowledgeGraphEntityInput, KnowledgeGraphInput } from "@/server/flows/knowledge-graph.schema";
import { projectProcedure } from "../../init";

/**
 * The knowledge-graph view of a deployed graph-rag node (part of dashboard.flows): viewers read it. Another
 * project's flow, node or entity answers NOT_FOUND, as if it did not exist.
 */
export const knowledgeGraphProcedures = {
  knowledgeGraph: projectProcedure("viewer")
    .input(KnowledgeGraphInput)
    .query(({ ctx, input }) => knowledgeGraph(ctx.projectId, input.flow, input.node)),

  /** The chunks an entity comes from, fetched when it is clicked. */
  knowledgeGraphEntity: projectProcedure("viewer")
    .input(KnowledgeGraphEntityInput)
    .query(({ ctx, input }) => knowledgeGraphEntityChunks(ctx.projectId, input.flow, input.node, input.entityId)),
};
