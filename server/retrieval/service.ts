import { db } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { retrieve } from "./retrieve";
import type { RetrievedChunk } from "./types";
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

/** The contract's retrieved chunk (§2.6). */
export const toRetrievedChunkDto = (chunk: RetrievedChunk) => ({
  text: chunk.text,
  file_id: chunk.sourceId,
  file_name: chunk.fileName,
  page_number: chunk.pageNumber,
  score: chunk.score,
  metadata: {
    ...chunk.metadata,
    file_id: chunk.sourceId,
    file_name: chunk.fileName,
    page_number: chunk.pageNumber,
    element_id: chunk.elementIds[0] ?? null,
    chunk_id: chunk.chunkId,
    chunk_set_id: chunk.chunkSetId,
    ...(chunk.title ? { document_title: chunk.title } : {}),
    ...(chunk.heading ? { section_heading: chunk.heading } : {}),
  },
});

export const retrieveChunks = async ({
  projectId,
  query,
  fileIds,
  fileNames,
  searchType = "hybrid",
}: {
  projectId: string;
  query: string;
  fileIds?: string[];
  fileNames?: string[];
  searchType?: SearchType;
}) => {
  const sourceIds = await resolveSourceScope({ projectId, fileIds, fileNames });
  const result = await retrieve({ projectId, query, searchType, topK: MAX_RETRIEVED_CHUNKS, sourceIds });
  const chunks = result.chunks.map(toRetrievedChunkDto);
  return {
    chunks,
    total: chunks.length,
    ...(result.message ? { message: result.message } : {}),
    search_type: result.effectiveSearchType,
    keyword_engine: result.keywordEngine,
    embedding_model: result.embeddingModel,
    ...(result.reranker ? { reranker: result.reranker } : {}),
  };
};
