import type { ChatModel, ChatUsage } from "../providers/chat";
import { addUsage, ZERO_USAGE } from "../providers/chat";
import { retrieve } from "../retrieval/retrieve";
import type { RetrievedChunk } from "../retrieval/types";
import type { SearchType } from "../retrieval/search-type.schema";
import { checkSufficiency, searchQueries } from "./planning";
import type { ThinkingLevel } from "./thinking.schema";

/**
 * How much retrieval work each thinking level does (contract §5.13 `thinking_level`):
 *   fast      one hybrid search, 5 chunks
 *   balanced  one hybrid search reranked (search type `semantic`), 8 chunks
 *   accurate  the query rewritten into up to 3 searches (by the chat model, else the question and its keywords),
 *             each reranked, fused, 10 chunks
 *   max       accurate, then a check that the chunks suffice (by the model, else: are all question terms present)
 *             and one more reranked search for what is missing, 12 chunks
 */

export { THINKING_LEVELS, type ThinkingLevel } from "./thinking.schema";

const LEVELS: Record<ThinkingLevel, { searchType: SearchType; topK: number; expand: boolean; check: boolean }> = {
  fast: { searchType: "hybrid", topK: 5, expand: false, check: false },
  balanced: { searchType: "semantic", topK: 8, expand: false, check: false },
  accurate: { searchType: "semantic", topK: 10, expand: true, check: false },
  max: { searchType: "semantic", topK: 12, expand: true, check: true },
};

export type RetrievalPlanResult = {
  chunks: RetrievedChunk[];
  /** Every query searched, in order (for the record and the tests). */
  searches: string[];
  usage: ChatUsage;
  message?: string;
};

/** Round-robin over the result lists (each best first), skipping chunks already taken: every search gets a say. */
const fuse = (lists: RetrievedChunk[][], topK: number) => {
  const out: RetrievedChunk[] = [];
  const seen = new Set<string>();
  for (let rank = 0; out.length < topK && lists.some((l) => rank < l.length); rank++) {
    for (const list of lists) {
      const chunk = list[rank];
      if (!chunk || seen.has(chunk.chunkId) || out.length >= topK) continue;
      seen.add(chunk.chunkId);
      out.push(chunk);
    }
  }
  return out;
};

export const retrieveForLevel = async ({
  level,
  model,
  projectId,
  query,
  sourceIds,
  signal,
}: {
  level: ThinkingLevel;
  model: ChatModel | null;
  projectId: string;
  query: string;
  sourceIds?: string[];
  signal?: AbortSignal;
}): Promise<RetrievalPlanResult> => {
  const plan = LEVELS[level];
  let usage = ZERO_USAGE;
  const search = (q: string) =>
    retrieve({ projectId, query: q, searchType: plan.searchType, topK: plan.topK, sourceIds });

  let queries = [query];
  if (plan.expand) {
    const expanded = await searchQueries(model, query, signal);
    queries = expanded.value;
    usage = addUsage(usage, expanded.usage);
  }
  const results = await Promise.all(queries.map(search));
  let lists = results.map((r) => r.chunks);
  let chunks = fuse(lists, plan.topK);
  if (plan.check && chunks.length) {
    const verdict = await checkSufficiency(model, query, chunks, signal);
    usage = addUsage(usage, verdict.usage);
    if (!verdict.value.sufficient && verdict.value.query) {
      queries = [...queries, verdict.value.query];
      lists = [...lists, (await search(verdict.value.query)).chunks];
      chunks = fuse(lists, plan.topK);
    }
  }
  return { chunks, searches: queries, usage, message: results.find((r) => r.message)?.message };
};
