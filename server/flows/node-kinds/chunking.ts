import { z } from "zod";
import { ELEMENT_TYPES } from "../../parsing/types";
import { defineKind, RETRIEVERS } from "./define";
import { enumField, rangeField } from "./fields";

export const EMBEDDING_MODELS = ["text-embedding-3-small", "text-embedding-3-large", "colqwen"] as const;
export const CHUNKING_SPLITTERS = ["character", "token", "semantic", "title", "element"] as const;

/** Splits the dataset's documents with its own settings into a chunk set that the deploy builds (contract §2.10). */
export const chunkingKind = defineKind({
  kind: "chunking",
  label: "Chunking",
  fields: {
    embeddingModel: enumField("embeddingModel", EMBEDDING_MODELS),
    chunkingSplitter: enumField("chunkingSplitter", CHUNKING_SPLITTERS),
    chunkSize: rangeField("chunkSize must be an integer of at least 1", { min: 1, max: 100_000, int: true }),
    chunkOverlap: rangeField("chunkOverlap must be an integer from 0 to chunkSize - 1", { min: 0, int: true }),
    chunkSeparator: z.string({ error: "chunkSeparator must be a string" }).max(100),
    splitLevel: rangeField("splitLevel must be an integer of at least 0", { min: 0, max: 10, int: true }),
    elementsToRemove: z.array(enumField("elementsToRemove", ELEMENT_TYPES)).max(ELEMENT_TYPES.length),
  },
  defaults: {
    embeddingModel: "text-embedding-3-small",
    chunkingSplitter: "character",
    chunkSize: 1000,
    chunkOverlap: 200,
    chunkSeparator: "\n\n",
    splitLevel: 0,
    elementsToRemove: [],
  },
  refine: (c) => (c.chunkOverlap >= c.chunkSize ? "chunkOverlap must be an integer from 0 to chunkSize - 1" : null),
  upstream: ["dataset"],
  downstream: RETRIEVERS,
  resultFields: ["totalChunks"],
});
