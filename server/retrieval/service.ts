import type { ProjectDefaults } from "../auth/api-tokens";
import { withModelUsage } from "../providers/usage";
import { db } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { retrieve, type RetrieveResult } from "./retrieve";
import type { SearchType } from "./search-type.schema";

/** POST /prebuilt-rag (contract §5.15): hybrid by default, at most 10 chunks, scoped by file ids or names. */
export const MAX_RETRIEVED_CHUNKS = 10;

/** Resolves file_ids / file_names to source ids of the project; an unknown one is a 404 (contract §5.15). */
export const resolveSourceScope = async ({
  projectId,
  fileIds,
  fileNames,
}: {
  projectId: string;
  fileIds?: string[];
  fileNames?: string[];
}): Promise<string[] | undefined> => {
  if (!fileIds?.length && !fileNames?.length) return undefined;
  const ids = new Set<string>();
  if (fileIds?.length) {
    const wanted = [...new Set(fileIds)];
    if (!wanted.every(isUuid)) throw new AppError("NOT_FOUND", "Source not found");
    const found = await db.source.findMany({ where: { projectId, id: { in: wanted } }, select: { id: true } });
    if (found.length !== wanted.length) throw new AppError("NOT_FOUND", "Source not found");
    found.forEach((s) => ids.add(s.id));
  }
  if (fileNames?.length) {
    const wanted = [...new Set(fileNames)];
    const found = await db.source.findMany({
      where: { projectId, fileName: { in: wanted } },
      select: { id: true, fileName: true },
    });
    if (new Set(found.map((s) => s.fileName)).size !== wanted.length)
      throw new AppError("NOT_FOUND", "Source not found");
    found.forEach((s) => ids.add(s.id));
  }
  return [...ids];
};

/** The chunks of a POST /prebuilt-rag (its wire shape is the transport's: public-api/v1/retrieval/mappers.ts). */
export const retrieveChunks = async ({
  projectId,
  query,
  fileIds,
  fileNames,
  searchType = "hybrid",
  project,
}: {
  projectId: string;
  query: string;
  fileIds?: string[];
  fileNames?: string[];
  searchType?: SearchType;
  /** The project's team and default models, as the token check read them. */
  project?: ProjectDefaults;
}): Promise<RetrieveResult> => {
  const sourceIds = await resolveSourceScope({ projectId, fileIds, fileNames });
  return withModelUsage({ projectId, cause: "search" }, () =>
    retrieve({ projectId, query, searchType, topK: MAX_RETRIEVED_CHUNKS, sourceIds, project }),
  );
};
