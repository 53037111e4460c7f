import { z } from "zod";
import { FlowName, GraphEdge, GraphNode, Prompt } from "./graph.schema";

/**
 * The flow file format of `npm run quarry -- flow import|export` (examples in examples/flows/): everything a flow's
 * draft is, nodes with their configs, edges and the project prompts its nodes use. Export of an import gives the
 * same file back.
 */
export const FLOW_FILE_FORMAT = "quarry-flow/1";

export const FlowFile = z.object({
  format: z.literal(FLOW_FILE_FORMAT, { error: `format must be "${FLOW_FILE_FORMAT}"` }),
  name: FlowName,
  description: z.string().max(2000).nullable().default(null),
  nodes: z.array(GraphNode).max(200),
  edges: z.array(GraphEdge).max(1000),
  prompts: z.array(Prompt).max(100).default([]),
});
export type FlowFile = z.infer<typeof FlowFile>;
