import { z } from "zod";
import { FlowName } from "./graph.schema";

/** Inputs of the knowledge-graph view (isomorphic: zod only). */

/** How many entities the view draws: the choices the page offers, the default, and the server's bound. */
export const ENTITY_LIMITS = [100, 300, 1000] as const;
export const ENTITY_LIMIT = 300;
export const ENTITY_LIMIT_MAX = 1000;
/** Search results per query, and the longest search text. */
export const SEARCH_LIMIT = 20;
export const SEARCH_TEXT_MAX = 200;

export const KnowledgeGraphInput = z.object({
  projectId: z.uuid(),
  flow: FlowName,
  node: z.string().trim().min(1).max(100),
});

export const KnowledgeGraphViewInput = KnowledgeGraphInput.extend({
  limit: z.number().int().min(1).max(ENTITY_LIMIT_MAX).default(ENTITY_LIMIT),
});

export const KnowledgeGraphEntityInput = KnowledgeGraphInput.extend({ entityId: z.uuid() });

export const KnowledgeGraphSearchInput = KnowledgeGraphInput.extend({
  text: z.string().trim().min(1).max(SEARCH_TEXT_MAX),
  limit: z.number().int().min(1).max(SEARCH_LIMIT).default(SEARCH_LIMIT),
});
