import { z } from "zod";
import { defineKind, RETRIEVERS } from "./define";

/**
 * Documents of the project. `files` are source file names as the contract documents them; `fileIds` are what is
 * stored and used (names are not unique, §11.8): a PATCH naming files is resolved to ids on the server.
 */
export const datasetKind = defineKind({
  kind: "dataset",
  label: "Dataset",
  fields: {
    files: z.array(z.string().max(1000), { error: "files must be a list of file names" }).max(10_000),
    fileIds: z.array(z.uuid({ error: "fileIds must be a list of file ids" })).max(10_000),
  },
  defaults: { files: [], fileIds: [] },
  upstream: [],
  downstream: ["chunking", ...RETRIEVERS],
  resultFields: ["totalDocuments", "totalChunks"],
});
