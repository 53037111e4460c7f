import { z } from "zod";

/** Search types the dashboard offers (isomorphic). */
export const SEARCH_TYPES = ["hybrid", "similarity", "keyword", "semantic"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SearchInput = z.object({
  projectId: z.uuid(),
  query: z.string().trim().min(1, "Type something to search for").max(1000),
  searchType: z.enum(SEARCH_TYPES).default("hybrid"),
  topK: z.number().int().min(1).max(50).default(10),
  /** Hits scoring below this are dropped (scores lie in [0, 1]); 0 keeps every hit. */
  scoreThreshold: z.number().min(0).max(1).default(0),
  /** Search these sources only; none given searches the whole project. */
  sourceIds: z.array(z.uuid()).min(1).max(100).optional(),
});

/** Top K choices and the threshold the dashboard's search starts with (a gibberish query scores below it). */
export const SEARCH_TOP_K_CHOICES = [5, 10, 20, 50] as const;
export const DEFAULT_SCORE_THRESHOLD = 0.3;
