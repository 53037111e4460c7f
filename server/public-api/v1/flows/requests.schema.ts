import { z } from "zod";

/** The body of POST {flow_url} and /simulate (contract §7.2): the query, and the page of items to answer with. */

const page = z.coerce
  .number({ error: "page must be an integer of at least 1" })
  .int()
  .min(1, { error: "page must be an integer of at least 1" });
const pageSize = z.coerce
  .number({ error: "page_size must be an integer between 1 and 100" })
  .int({ error: "page_size must be an integer between 1 and 100" })
  .min(1, { error: "page_size must be an integer between 1 and 100" })
  .max(100, { error: "page_size must be an integer between 1 and 100" });

export const RunFlowInput = z.object({
  query: z.string({ error: "query must be a string" }).max(10_000).default(""),
  page: page.default(1),
  page_size: pageSize.default(10),
  stream: z.boolean({ error: "stream must be true or false" }).default(false),
});
export type RunFlowInput = z.infer<typeof RunFlowInput>;

/** The body of POST {flow_url}/deploy (contract §7.3): `{}` is allowed. */
export const DeployFlowInput = z.object({
  tool_description: z.string({ error: "Invalid input: tool_description must be a string" }).nullish(),
});

/** The body of POST {flow_url}/nodes/simulate (§7.1); the flow service looks the node up and answers 404. */
export const SimulateNodeInput = z.object({ node_id: z.string() });
