import { withModelUsage } from "../providers/usage";
import { retrieve } from "./retrieve";
import type { SearchType } from "./search.schema";

/** The dashboard's search box: the one retrieval function, with the search type the user picked. */
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
  const result = await withModelUsage({ projectId, cause: "search" }, () =>
    retrieve({ projectId, query, searchType, topK }),
  );
  return {
    requested: searchType,
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
