/** What one chunk yields: entities and the relationships between them, as extracted (before duplicates merge). */

export type ExtractedEntity = { name: string; type: string; description: string };
export type ExtractedRelationship = { source: string; target: string; description: string; weight: number };
export type ChunkExtraction = { entities: ExtractedEntity[]; relationships: ExtractedRelationship[] };

/** The build's cursor (flow_node_indexes.checkpoint): the stage it is in and how far that stage got. */
export type GraphCheckpoint = {
  stage?: "extract" | "merge" | "write" | "embed" | "communities" | "summarise";
  /** extract: the next chunk position (over the index's chunks in a fixed order); embed/summarise: the next row. */
  next?: number;
  /** merge: the model's answers so far, one per candidate pair in order (true: the same entity). */
  decisions?: boolean[];
};
