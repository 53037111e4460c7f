import { retrieveChunks } from "../retrieval/service";
import type { SearchType } from "./search.schema";

/**
 * The dashboard's search box, in one place. This is the adapter to the retrieval function: today it runs the
 * existing hybrid retrieval (`retrieveChunks`) for every search type and reports `ranAs: "hybrid"`, so the page never
 * claims a search type that did not run. When `retrieve({ projectId, query, searchType, topK })` exists, only this
 * function changes.
 */
export const searchProject = async ({
  projectId,
  query,
  searchType,
  topK,
}: {
  projectId: string;
  query: string;
  searchType: SearchType;
  topK: number;
}) => {
  const result = await retrieveChunks({ projectId, query, limit: topK });
  return {
    requested: searchType,
    ranAs: "hybrid" as SearchType,
    message: "message" in result ? (result.message ?? null) : null,
    hits: result.chunks.map((chunk) => ({
      sourceId: chunk.file_id,
      fileName: chunk.file_name,
      pageNumber: chunk.page_number,
      elementId: typeof chunk.metadata.element_id === "string" ? chunk.metadata.element_id : null,
      text: chunk.text,
      score: chunk.score,
    })),
  };
};
