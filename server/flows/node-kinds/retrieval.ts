import { z } from "zod";
import { RETRIEVAL_TOP_K, SEARCH_TYPES } from "../../retrieval/search-type.schema";
import { defineKind, RAG_UPSTREAM } from "./define";
import { enumField, rangeField } from "./fields";

/** One search of the documents upstream (contract §2.10): the retrieve() of server/retrieval with these options. */
export const retrievalKind = defineKind({
  kind: "retrieval",
  label: "Retrieval",
  fields: {
    searchType: enumField("searchType", SEARCH_TYPES),
    topK: rangeField("topK must be an integer between 1 and 100", {
      min: RETRIEVAL_TOP_K.min,
      max: RETRIEVAL_TOP_K.max,
      int: true,
    }),
    scoreThreshold: rangeField("scoreThreshold must be between 0.0 and 1.0", { min: 0, max: 1 }),
    retrievalQuery: z.string({ error: "retrievalQuery must be a string or null" }).max(4000).nullable(),
  },
  defaults: { searchType: "similarity", topK: 10, scoreThreshold: 0, retrievalQuery: null },
  requiredOnPatch: ["searchType"],
  upstream: RAG_UPSTREAM,
  downstream: ["reranking", "llm", "response"],
  resultFields: ["totalRetrievals"],
});
