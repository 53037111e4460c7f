import { z } from "zod";

/** Search types the dashboard offers (isomorphic). */
export const SEARCH_TYPES = ["hybrid", "similarity", "keyword", "semantic"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SearchInput = z.object({
  projectId: z.uuid(),
  query: z.string().trim().min(1, "Type something to search for").max(1000),
  searchType: z.enum(SEARCH_TYPES).default("hybrid"),
  topK: z.number().int().min(1).max(50).default(10),
});
