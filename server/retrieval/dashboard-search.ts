import { withModelUsage } from "../providers/usage";
import { retrieve } from "./retrieve";
import type { SearchType } from "./search.schema";

/** The dashboard's search box: the one retrieval function, with the search type the user picked. */
export const searchProject = async ({
  projectId,
  query,
  searchType,
  topK,
  scoreThreshold,
  sourceIds,
}: {
  projectId: string;
  query: string;
  searchType: SearchType;
  topK: number;
  scoreThreshold: number;
  sourceIds?: string[];
}) => {
  const result = await withModelUsage({ projectId, cause: "search" }, () =>
    retrieve({ projectId, query, searchType, topK, scoreThreshold, sourceIds }),
  );
  return {
    requested: searchType,
    scoreThreshold,
    ranAs: result.effectiveSearchType,
    message: result.message ?? null,
    hits: result.chunks.map((chunk) => ({
      sourceId: chunk.sourceId,
      fileName: chunk.fileName,
      pageNumber: chunk.pageNumber,
      elementId: chunk.elementIds[0] ?? null,
      text: chunk.text,
      score: chunk.score,
    })),
  };
};
