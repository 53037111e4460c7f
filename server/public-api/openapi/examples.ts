/**
 * Ids the documented examples use. The examples test replays every example against a running app and puts the ids
 * it got from earlier answers in place of these, so one example can refer to what another created.
 */
export const EXAMPLE_IDS = {
  fileId: "5e0c9a52-7d5b-4c1e-9f3a-2b8d6e4f1a07",
  buildId: "b4d2f1e8-3a6c-4b9d-8e7f-0c1a2b3d4e5f",
  /** A well-formed id no build has: GET /builds answers 200 `not_found` (contract §5.1). */
  unknownBuildId: "00000000-0000-4000-8000-000000000000",
} as const;

/** The example flow (examples/flows/plain-rag.json) and its dataset node. */
export const EXAMPLE_FLOW = { name: "plain-rag", datasetNodeId: "dataset-1764000000001" } as const;

/** The name of the file the ingest-file example uploads; the flow's dataset example points at it. */
export const EXAMPLE_FILE_NAME = "quarry-notes.md";
