import { db } from "../db";
import type { RetrievedChunk } from "../retrieval/types";
import type { SourceElement } from "./whole-sentences";

/**
 * The elements the given chunks were cut from, by element id, for the local answerer's sentence boundaries
 * (whole-sentences.ts). One query, scoped to the project; a chunk whose elements are gone (a source rebuilt since it
 * was retrieved) simply has none, and its own text decides.
 */
export const loadSourceElements = async (
  projectId: string,
  chunks: RetrievedChunk[],
): Promise<Map<string, SourceElement>> => {
  const ids = [...new Set(chunks.flatMap((c) => c.elementIds))];
  if (!ids.length) return new Map();
  const rows = await db.element.findMany({
    where: { projectId, sourceId: { in: [...new Set(chunks.map((c) => c.sourceId))] }, elementId: { in: ids } },
    select: { elementId: true, text: true, elementType: true },
  });
  return new Map(rows.map((r) => [r.elementId, { text: r.text, type: r.elementType }]));
};
