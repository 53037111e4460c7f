import { z } from "zod";

/**
 * Search types of retrieval (contract §2.10, retrieval node `searchType`), shared by the public API, the flow editor
 * and the server. Isomorphic: zod only.
 * - similarity: vectors only (cosine similarity)
 * - keyword: BM25 (or Postgres full text where no BM25 extension exists)
 * - hybrid: both, fused
 * - semantic: hybrid candidates reordered by a reranker
 */
export const SEARCH_TYPES = ["similarity", "keyword", "hybrid", "semantic"] as const;
export const SearchType = z.enum(SEARCH_TYPES);
export type SearchType = z.infer<typeof SearchType>;

/** Bounds of the retrieval node's options (contract §2.10 and §9); the node's default search type is similarity. */
export const RETRIEVAL_TOP_K = { min: 1, max: 100, default: 10 } as const;
