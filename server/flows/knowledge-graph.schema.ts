import { z } from "zod";
import { FlowName } from "./graph.schema";

/** Inputs of the knowledge-graph view (isomorphic: zod only). */

export const KnowledgeGraphInput = z.object({
  projectId: z.uuid(),
  flow: FlowName,
  node: z.string().trim().min(1).max(100),
});

export const KnowledgeGraphEntityInput = KnowledgeGraphInput.extend({ entityId: z.uuid() });
