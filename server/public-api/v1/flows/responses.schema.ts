import { z } from "zod";
import { Citation } from "../answers/responses.schema";

/** Response shapes of the flow service (contract §2.8–2.12, §7). Node `config` is camelCase and per kind: open. */

/** §2.8. */
const FlowSummary = z.strictObject({
  name: z.string(),
  description: z.string().nullable(),
  status: z.string(),
  url: z.string().nullable(),
});

export const ListFlowsResponse = z.strictObject({ flows: z.array(FlowSummary), total: z.number() });

export const GetFlowResponse = FlowSummary.extend({
  revision_id: z.string().nullable(),
  deploy: z
    .strictObject({
      revision_id: z.string(),
      status: z.string(),
      step: z.string().nullable(),
      progress: z.number(),
      error: z.string().nullable(),
    })
    .nullable(),
});

/**
 * §2.9. A node that never ran has no `result`; a result's counters depend on the node's kind (§2.10), so beyond the
 * flags it is open.
 */
const NodeData = z.strictObject({
  name: z.string(),
  config: z.record(z.string(), z.unknown()),
  result: z
    .looseObject({
      updated: z.boolean(),
      processing: z.boolean(),
      waiting: z.boolean(),
      has_error: z.boolean(),
      updatedMetrics: z.boolean(),
      lastRun: z.string().optional(),
      error: z.string().optional(),
    })
    .optional(),
});

export const ListNodesResponse = z.array(
  z.strictObject({
    id: z.string(),
    type: z.string(),
    position: z.strictObject({ x: z.number(), y: z.number() }),
    style: z.strictObject({ height: z.number(), width: z.number() }),
    data: NodeData,
  }),
);

/** §2.11. */
export const PromptsResponse = z.array(z.strictObject({ id: z.string(), name: z.string(), text: z.string() }));

/** §2.12. */
export const UpdateNodeResponse = z.strictObject({ success: z.boolean(), message: z.string(), node_id: z.string() });

export const SimulateNodeResponse = z.strictObject({
  success: z.boolean(),
  message: z.string(),
  updated_nodes: z.array(z.strictObject({ id: z.string(), type: z.string(), data: NodeData })),
});

/** §7.3. */
export const DeployResponse = z.strictObject({
  success: z.boolean(),
  message: z.string(),
  revision_id: z.string(),
  status: z.string(),
});

/** §7.2: one page of items; `answer`, `model` and `citations` when the flow generates text. */
const RunResult = z.strictObject({
  items: z.array(
    z.strictObject({
      page_content: z.string(),
      metadata: z.strictObject({
        source: z.string(),
        page: z.number().nullable(),
        chunk_id: z.string(),
        relevance_score: z.number(),
        file_id: z.string(),
        // A RAPTOR node's items: the tree level, and for a summary the documents under it.
        level: z.number().optional(),
        file_ids: z.array(z.string()).optional(),
        // What led a graph-rag node to the chunk, as the graph index stored it.
        graph: z.unknown().optional(),
      }),
    }),
  ),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  total_pages: z.number(),
  answer: z.string().optional(),
  model: z.string().optional(),
  citations: z.array(Citation).optional(),
});

/** A run with `"stream": true` answers with its own text/event-stream Response (events are not checked here). */
export const RunFlowResponse = z.union([RunResult, z.instanceof(Response)]);
